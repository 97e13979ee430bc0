// The settings dialog (header gear): notation, sound, move confirmation,
// board and piece themes. Every change applies at once and is remembered.

import { el } from '../dom.js';
import { Key, t } from '../i18n.js';
import { BOARD_THEMES, PIECE_SETS, Settings, setSetting, settings } from '../settings.js';
import { askNotifications } from '../your-turn.js';

function radios<K extends keyof Settings>(
  key: K,
  legend: string,
  options: [Settings[K], string][],
  swatch?: (v: Settings[K]) => HTMLElement,
): HTMLElement {
  const set = el('fieldset', { class: `setting setting-${key}` }, el('legend', {}, legend));
  for (const [value, label] of options) {
    const input = el('input', { type: 'radio', name: `s-${key}`, value: String(value), 'data-setting': key });
    input.checked = settings()[key] === value;
    input.addEventListener('change', () => {
      if (input.checked) setSetting(key, value);
    });
    set.appendChild(el('label', { class: 'choice' }, input, swatch ? swatch(value) : null, el('span', {}, label)));
  }
  return set;
}

function checkbox(key: 'sound' | 'confirmCorrespondence' | 'chat', label: string): HTMLElement {
  const input = el('input', { type: 'checkbox', name: `s-${key}`, 'data-setting': key });
  input.checked = settings()[key];
  input.addEventListener('change', () => setSetting(key, input.checked));
  return el('label', { class: 'setting choice' }, input, el('span', {}, label));
}

/** Off by default; the browser's permission is asked on this click only. */
function notifyBox(): HTMLElement {
  const input = el('input', { type: 'checkbox', name: 's-notify', 'data-setting': 'notify' });
  input.checked = settings().notify;
  const note = el('span', { class: 'setting-note', 'aria-live': 'polite' });
  input.addEventListener('change', () => {
    if (!input.checked) return setSetting('notify', false);
    askNotifications().then(ok => {
      input.checked = ok;
      setSetting('notify', ok);
      note.textContent = ok ? '' : t('settings.notifyRefused');
    });
  });
  return el('label', { class: 'setting choice' }, input, el('span', {}, t('settings.notify')), note);
}

export function openSettings(): void {
  document.querySelector('dialog.settings-dialog')?.remove();
  const dialog = el('dialog', { class: 'settings-dialog', 'aria-labelledby': 'settings-title' });
  const close = el('button', { type: 'button', class: 'btn primary', 'data-action': 'close-settings' }, t('settings.close'));
  close.addEventListener('click', () => dialog.close());
  dialog.append(
    el('h2', { id: 'settings-title' }, t('settings.title')),
    radios('notation', t('settings.notation'), [
      ['figurine', t('settings.figurine')],
      ['letters', t('settings.letters')],
    ]),
    checkbox('sound', t('settings.sound')),
    checkbox('confirmCorrespondence', t('settings.confirm')),
    checkbox('chat', t('settings.chat')),
    notifyBox(),
    radios(
      'board',
      t('settings.board'),
      BOARD_THEMES.map(b => [b, t(`theme.${b}` as Key)]),
      b => el('span', { class: `swatch board-swatch board-${b}`, 'aria-hidden': 'true' }),
    ),
    radios(
      'pieces',
      t('settings.pieces'),
      PIECE_SETS.map(p => [p, t(`pieces.${p}` as Key)]),
      p => el('span', { class: `swatch piece-swatch pieces-${p} cg-wrap`, 'aria-hidden': 'true' }, el('piece', { class: 'white knight' })),
    ),
    el('div', { class: 'actions' }, close),
  );
  dialog.addEventListener('close', () => dialog.remove());
  dialog.addEventListener('click', e => {
    if (e.target === dialog) dialog.close();
  });
  document.body.appendChild(dialog);
  dialog.showModal();
}
