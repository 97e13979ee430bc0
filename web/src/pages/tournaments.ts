// The tournaments, /tournaments (docs/API.md, "Tournaments"): the arenas and
// Swiss to come and running (by start), then the finished ones (newest
// first), as the server lists them, each with its clock; and, for a
// logged-in player, the form that creates an arena or a Swiss. The list is asked again every few seconds (a
// start or an end changes it); the times left tick every second.

import { TournamentSummary, api, ws } from '../api.js';
import { currentUser, onUserChange } from '../account-api.js';
import { clear, el } from '../dom.js';
import { errorText } from '../errors.js';
import { variantOr, variantSelect } from '../games.js';
import { t, tn } from '../i18n.js';
import { navigate } from '../router.js';
import { dateTime, endedAt, tournamentMeta, tournamentName, whenText } from './tournament-parts.js';

const REFRESH_MS = 10000;

function field(label: string, input: HTMLElement): HTMLElement {
  return el('label', { class: 'field' }, el('span', { class: 'field-label' }, label), input);
}

function numberInput(id: string, min: number, max: number, value: number, step = '1'): HTMLInputElement {
  return el('input', { id, name: id.slice(2), type: 'number', min: String(min), max: String(max), step, value: String(value), inputmode: step === '1' ? 'numeric' : 'decimal' });
}

/** The "create a tournament" form (an arena: its length; a Swiss: its rounds); a logged-out visitor is asked to log in instead. */
function createPanel(): HTMLElement {
  const panel = el('section', { class: 'panel tournament-create', 'aria-labelledby': 'tournament-create-title' }, el('h2', { id: 'tournament-create-title' }, t('tournaments.create')));
  if (!currentUser()) {
    panel.append(
      el('p', {}, t('tournaments.loginToCreate')),
      el('a', { href: '/login?next=/tournaments', 'data-link': '', class: 'btn primary', 'data-action': 'login' }, t('nav.login')),
    );
    return panel;
  }
  const variant = variantSelect(variantOr(null));
  variant.id = 't-variant';
  const minutes = numberInput('t-minutes', 0, 180, 3, 'any');
  const increment = numberInput('t-increment', 0, 180, 2);
  const kind = el('select', { id: 't-kind', name: 'kind' }, el('option', { value: 'arena' }, t('tournaments.kindArena')), el('option', { value: 'swiss' }, t('tournaments.kindSwiss')));
  const duration = numberInput('t-duration', 10, 180, 45);
  const rounds = numberInput('t-rounds', 3, 15, 5);
  const interval = numberInput('t-round-interval', 0, 300, 10);
  const arenaRow = el('div', { class: 'row', 'data-kind': 'arena' }, field(t('tournaments.duration'), duration));
  const swissRow = el('div', { class: 'row', 'data-kind': 'swiss', hidden: '' }, field(t('tournaments.rounds'), rounds), field(t('tournaments.roundInterval'), interval));
  kind.addEventListener('change', () => {
    arenaRow.hidden = kind.value !== 'arena';
    swissRow.hidden = kind.value !== 'swiss';
  });
  const startsIn = numberInput('t-starts-in', 0, 10080, 5);
  const rated = el('input', { type: 'checkbox', id: 't-rated', name: 'rated' });
  rated.checked = true;
  const name = el('input', { type: 'text', id: 't-name', name: 'name', maxlength: '20', placeholder: currentUser()?.username ?? '', autocomplete: 'off' });
  const msg = el('div', { class: 'form-msg', 'aria-live': 'polite' });
  const submit = el('button', { type: 'submit', class: 'btn primary', 'data-action': 'create-tournament' }, t('tournaments.createButton'));
  const form = el(
    'form',
    { id: 'tournament-form', novalidate: '' },
    el('div', { class: 'row' }, field(t('tournaments.kind'), kind), field(t('lobby.variant'), variant)),
    el('div', { class: 'row' }, field(t('lobby.minutes'), minutes), field(t('lobby.increment'), increment)),
    arenaRow,
    swissRow,
    field(t('tournaments.startsInField'), startsIn),
    el('label', { class: 'field check' }, rated, el('span', {}, t('lobby.rated'))),
    field(t('tournaments.name'), name),
    el('div', { class: 'actions' }, submit),
    msg,
  );
  // an empty box: the server's default (a name: the creator's; a start: in 5 minutes)
  const num = (i: HTMLInputElement) => (i.value.trim() === '' ? NaN : Number(i.value));
  form.addEventListener('submit', async e => {
    e.preventDefault();
    msg.textContent = '';
    submit.disabled = true;
    try {
      const start = num(startsIn);
      const swiss = kind.value === 'swiss';
      const r = await api.createTournament({
        kind: swiss ? 'swiss' : 'arena',
        variant: variant.value,
        time: { kind: 'realtime', minutes: num(minutes), increment: num(increment) },
        ...(swiss ? { rounds: num(rounds), round_interval: num(interval) } : { minutes: num(duration) }),
        starts_in: Number.isNaN(start) ? 5 : start,
        rated: rated.checked,
        name: name.value.trim() || undefined,
      });
      navigate(`/tournament/${r.tournament.id}`);
    } catch (err) {
      msg.textContent = errorText(err);
      submit.disabled = false;
    }
  });
  panel.append(form, el('p', { class: 'hint' }, t('tournaments.createHint')));
  return panel;
}

function row(x: TournamentSummary, now: number): HTMLElement {
  return el(
    'li',
    {},
    el(
      'a',
      { href: `/tournament/${encodeURIComponent(x.id)}`, 'data-link': '', class: `tournament-row status-${x.status}`, 'data-tournament-id': x.id, 'data-status': x.status },
      el('span', { class: 't-name' }, tournamentName(x)),
      el('span', { class: 't-meta' }, tournamentMeta(x)),
      // under the "Finished" title, when it ended; else the time to its start or end (the start's date on hover)
      x.status === 'finished'
        ? el('span', { class: 't-when' }, dateTime(endedAt(x)))
        : el('span', { class: 't-when', title: t('tournament.startAt', { date: dateTime(x.starts_at) }) }, whenText(x, now)),
      el('span', { class: 't-players' }, tn('tournaments.players', x.players)),
    ),
  );
}

export function tournamentsPage(root: HTMLElement): () => void {
  let alive = true;
  let list: TournamentSummary[] | null = null;
  const openBox = el('ul', { class: 'tournament-list', 'data-role': 'open' });
  const doneBox = el('ul', { class: 'tournament-list', 'data-role': 'finished' });
  const msg = el('p', { class: 'form-msg', 'aria-live': 'polite' });
  const createSlot = el('div', { class: 'tournaments-side' }, createPanel());
  const page = el(
    'div',
    { class: 'tournaments-page' },
    el(
      'div',
      { class: 'tournaments-main' },
      el(
        'section',
        { class: 'panel', 'aria-labelledby': 'tournaments-title' },
        el('h1', { id: 'tournaments-title' }, t('tournaments.title')),
        el('p', { class: 'tournaments-intro' }, t('tournaments.intro')),
        el('h2', {}, t('tournaments.open')),
        openBox,
        msg,
      ),
      el('section', { class: 'panel' }, el('h2', {}, t('tournaments.done')), doneBox),
    ),
    createSlot,
  );
  root.appendChild(page);

  // the times left, from the server's clock as the socket knows it
  const now = () => ws().serverNow();
  const render = () => {
    if (!list) return;
    const open = list.filter(x => x.status !== 'finished');
    const done = list.filter(x => x.status === 'finished');
    clear(openBox);
    clear(doneBox);
    openBox.append(...(open.length ? open.map(x => row(x, now())) : [el('li', { class: 'empty' }, t('tournaments.noneOpen'))]));
    doneBox.append(...(done.length ? done.map(x => row(x, now())) : [el('li', { class: 'empty' }, t('tournaments.noneDone'))]));
  };
  const tick = () => {
    if (!list) return;
    for (const a of openBox.querySelectorAll<HTMLElement>('[data-tournament-id]')) {
      const x = list.find(y => y.id === a.dataset.tournamentId);
      const when = a.querySelector('.t-when');
      if (x && when) when.textContent = whenText(x, now());
    }
  };
  const load = () =>
    api.tournaments().then(
      r => {
        if (!alive) return;
        list = r.tournaments;
        msg.textContent = '';
        render();
      },
      e => alive && (msg.textContent = errorText(e)),
    );
  void load();
  const timers = [window.setInterval(() => void load(), REFRESH_MS), window.setInterval(tick, 1000)];
  const offUser = onUserChange(() => createSlot.replaceChildren(createPanel()));
  return () => {
    alive = false;
    timers.forEach(x => window.clearInterval(x));
    offUser();
  };
}
