// PGN into the analysis board: paste or upload a file, the server reads and
// replays every game (its reader accepts PGN as real tools write it), and the
// games become the study list — kept in this browser — from which one click
// loads a game onto the board. A game the server could not replay shows its
// error (game, line and move).

import { http } from '../api.js';
import { clear, el } from '../dom.js';
import { errorText } from '../errors.js';
import type { Variant } from '../fen.js';
import { t, tn } from '../i18n.js';

export interface ImportedGame {
  index: number;
  tags: Record<string, string>;
  variant?: Variant;
  initial_fen?: string;
  moves?: { uci: string; san: string; comment: string }[];
  result?: string;
  /** Moves read from a lenient spelling ("nf3", "o-o", French "Cf3"). */
  readings?: { ply: number; move?: string; written: string; read: string }[];
  error: string | null;
  /** The error said for the client: a reason of the error table and its parameters. */
  reason?: string | null;
  params?: Record<string, string | number> | null;
}

const STUDY_KEY = 'echecs.study';
const MAX_FILE_BYTES = 1 << 20;

function loadStudy(): ImportedGame[] {
  try {
    const v = JSON.parse(localStorage.getItem(STUDY_KEY) ?? '[]') as unknown;
    return Array.isArray(v) ? (v as ImportedGame[]) : [];
  } catch {
    return [];
  }
}

function saveStudy(games: ImportedGame[]): void {
  try {
    localStorage.setItem(STUDY_KEY, JSON.stringify(games));
  } catch {
    /* storage full or unavailable: the list lasts for this page only */
  }
}

/** A short label for a game of the list: "Ann – Bob, 1-0 (Rated Blitz game)". */
export function gameLabel(g: ImportedGame): string {
  const white = g.tags.White ?? '?';
  const black = g.tags.Black ?? '?';
  const event = g.tags.Event && g.tags.Event !== '?' ? ` (${g.tags.Event})` : '';
  return `${g.index}. ${white} – ${black}, ${g.result ?? g.tags.Result ?? '*'}${event}`;
}

/** A game's error in the user's language (its reason), else the server's words. */
export function gameError(g: ImportedGame): string {
  if (!g.reason) return g.error ?? '';
  return errorText({ reason: g.reason, params: g.params ?? {}, message: g.error ?? '' });
}

/** "Read with a guess: 2. nf3 read as Nf3, ..." for the moves read from a lenient spelling. */
export function readingsNote(g: ImportedGame): string {
  const r = g.readings ?? [];
  if (r.length === 0) return '';
  const shown = r.slice(0, 5).map(x => t('study.reading', { move: x.move ?? '', written: x.written, read: x.read }));
  return t('study.readings', { list: shown.join(', ') + (r.length > 5 ? ', …' : '') });
}

export function pgnImportPanel(onLoad: (g: ImportedGame) => void): HTMLElement {
  const text = el('textarea', { class: 'export-box', rows: '5', name: 'pgn-input', 'aria-label': t('study.paste') });
  const file = el('input', { type: 'file', accept: '.pgn,text/plain', name: 'pgn-file', 'aria-label': t('study.file') });
  const read = el('button', { type: 'button', class: 'btn small', 'data-action': 'read-pgn' }, t('study.read'));
  const msg = el('div', { class: 'form-msg', 'aria-live': 'polite' });
  const list = el('ul', { class: 'study-list', 'aria-label': t('study.list') });

  const render = (games: ImportedGame[]) => {
    clear(list);
    for (const g of games) {
      const item = el('li', {});
      if (g.error) item.append(el('span', { class: 'study-error' }, `${gameLabel(g)}: ${gameError(g)}`));
      else {
        const b = el('button', { type: 'button', class: 'link-btn', 'data-action': 'load-game' }, gameLabel(g));
        b.addEventListener('click', () => onLoad(g));
        item.append(b);
        const note = readingsNote(g);
        if (note) item.append(el('div', { class: 'study-note' }, note));
      }
      list.appendChild(item);
    }
  };

  const submit = async (pgn: string) => {
    msg.textContent = '';
    msg.classList.remove('ok');
    try {
      const r = await http<{ games: ImportedGame[]; truncated: boolean }>('POST', '/api/pgn/read', { text: pgn });
      saveStudy(r.games);
      render(r.games);
      // a count, not an error: not in the error colour
      msg.textContent = tn(r.truncated ? 'study.truncated' : 'study.count', r.games.length);
      msg.classList.add('ok');
      const first = r.games.find(g => !g.error);
      if (first) onLoad(first);
    } catch (e) {
      msg.textContent = errorText(e);
    }
  };

  read.addEventListener('click', () => void submit(text.value));
  file.addEventListener('change', async () => {
    const f = file.files?.[0];
    if (!f) return;
    if (f.size > MAX_FILE_BYTES) {
      msg.classList.remove('ok');
      msg.textContent = t('study.tooLarge');
      return;
    }
    const pgn = await f.text();
    text.value = pgn;
    void submit(pgn);
  });
  render(loadStudy());
  return el(
    'details',
    { class: 'pgn-import' },
    el('summary', {}, t('study.title')),
    text,
    el('div', { class: 'controls' }, read, file),
    msg,
    list,
  );
}
