// Board editor: set up any position of the three games (Alice: each piece on
// board 1 or 2; Avalanche: a pawn on its last rank awaits its owner's
// choice), side to move, castling rights, en passant square. The server
// checks every position and its refusal is shown in its words (the core's
// FEN errors say which field and why). From a legal position: analyse it,
// solve it as a problem, or play the computer from it.

import { http, type ServerError } from '../api.js';
import { clear, el } from '../dom.js';
import { BoardEditor, EMPTY_FEN, oneBoard } from '../editor.js';
import { errorText, problemText } from '../errors.js';
import { INITIAL_FEN, Variant } from '../fen.js';
import { t, tn } from '../i18n.js';
import { navigate } from '../router.js';
import { twoBoards, variantOr, variantSelect } from '../games.js';

const CASTLING = [
  { letter: 'K', key: 'editor.whiteShort' },
  { letter: 'Q', key: 'editor.whiteLong' },
  { letter: 'k', key: 'editor.blackShort' },
  { letter: 'q', key: 'editor.blackLong' },
] as const;
const CHECK_DELAY_MS = 250;

interface Checked {
  fen: string;
  legal_moves: string[];
  status: string;
  termination: string | null;
}

export function editorPage(root: HTMLElement, q: URLSearchParams): () => void {
  let variant: Variant = variantOr(q.get('variant'));
  const startFen = q.get('fen') ?? INITIAL_FEN;
  const fields = startFen.trim().split(/\s+/);
  let placement = fields[0] ?? '8/8/8/8/8/8/8/8';
  let legal = false;
  let seq = 0;
  let timer: number | undefined;

  const page = el('div', { class: 'analysis-page editor-page' });
  const boardHost = el('div', { class: 'game-board' });
  const palette = el('div', { class: 'palette', role: 'toolbar', 'aria-label': t('problems.palette') });
  const side = el('aside', { class: 'game-side' });
  const variantSel = variantSelect(variant);
  const turnSel = el('select', { name: 'turn', 'aria-label': t('editor.turn') });
  turnSel.append(el('option', { value: 'w' }, t('color.white')), el('option', { value: 'b' }, t('color.black')));
  turnSel.value = fields[1] === 'b' ? 'b' : 'w';
  const castleBoxes = CASTLING.map(c => {
    const box = el('input', { type: 'checkbox', name: `castle-${c.letter}` });
    box.checked = (fields[2] ?? '').includes(c.letter);
    return { letter: c.letter, box, label: el('label', { class: 'check' }, box, ' ', t(c.key)) };
  });
  const epInput = el('input', {
    type: 'text',
    name: 'ep',
    class: 'ep-field',
    value: fields[3] && fields[3] !== '-' ? fields[3] : '',
    placeholder: t('editor.epNone'),
    'aria-label': t('editor.ep'),
    maxlength: '2',
    autocomplete: 'off',
    spellcheck: 'false',
  });
  const fenInput = el('input', { type: 'text', class: 'fen-field', name: 'fen', 'aria-label': t('game.fen'), spellcheck: 'false' });
  const loadBtn = el('button', { type: 'button', class: 'btn small', 'data-action': 'load-fen' }, t('analysis.loadFen'));
  const copyBtn = el('button', { type: 'button', class: 'btn small', 'data-action': 'copy-fen' }, t('editor.copy'));
  const verdict = el('div', { class: 'form-msg editor-verdict', 'aria-live': 'polite' });
  const analyseBtn = el('button', { type: 'button', class: 'btn', 'data-action': 'analyse' }, t('editor.analyse'));
  const solveBtn = el('button', { type: 'button', class: 'btn', 'data-action': 'to-problems' }, t('editor.problem'));
  const computerBtn = el('button', { type: 'button', class: 'btn primary', 'data-action': 'play-computer' }, t('editor.computer'));
  const challengeBtn = el('button', { type: 'button', class: 'btn', 'data-action': 'challenge-friend' }, t('editor.challenge'));
  const msg = el('div', { class: 'form-msg', 'aria-live': 'polite' });

  side.append(
    el('h1', {}, t('editor.title')),
    el('label', { class: 'field' }, el('span', { class: 'field-label' }, t('lobby.variant')), variantSel),
    el('label', { class: 'field' }, el('span', { class: 'field-label' }, t('editor.turn')), turnSel),
    el('fieldset', { class: 'castling' }, el('legend', {}, t('editor.castling')), ...castleBoxes.map(c => c.label)),
    el('label', { class: 'field' }, el('span', { class: 'field-label' }, t('editor.ep')), epInput),
    el('div', { class: 'fen-row' }, fenInput, loadBtn, copyBtn),
    verdict,
    el('div', { class: 'controls' }, analyseBtn, solveBtn),
    el('div', { class: 'controls' }, computerBtn, challengeBtn),
    msg,
  );
  page.append(el('div', { class: 'game-main' }, boardHost, palette), side);
  clear(root);
  root.appendChild(page);

  const fen = (): string => {
    const castling = castleBoxes.filter(c => c.box.checked).map(c => c.letter).join('') || '-';
    const ep = epInput.value.trim().toLowerCase() || '-';
    return `${placement} ${turnSel.value} ${castling} ${ep} 0 1`;
  };

  const setActions = () => {
    for (const b of [analyseBtn, solveBtn, computerBtn, challengeBtn]) b.disabled = !legal;
  };

  /** The server judges the position; its refusal says which FEN field is wrong and why. */
  const check = async () => {
    const mine = ++seq;
    const f = fen();
    fenInput.value = f;
    history.replaceState(null, '', `/editor?${new URLSearchParams({ variant, fen: f }).toString()}`);
    try {
      const r = await http<Checked>('POST', '/api/analysis', { variant, fen: f, moves: [] });
      if (mine !== seq) return;
      legal = true;
      verdict.className = 'form-msg editor-verdict ok';
      // which position the verdict is about (the tests wait for it)
      verdict.dataset.fen = f;
      verdict.dataset.state = 'legal';
      verdict.textContent =
        r.status === 'over' && r.termination
          ? t('editor.over', { reason: r.termination })
          : tn('editor.legal', r.legal_moves.length);
    } catch (e) {
      if (mine !== seq) return;
      legal = false;
      verdict.className = 'form-msg editor-verdict bad';
      verdict.dataset.fen = f;
      verdict.dataset.state = 'illegal';
      // the server's problem key in the user's language, else its English words
      const said = problemText((e as ServerError | undefined)?.params);
      const detail = said || (e instanceof Error && e.message ? e.message : errorText(e));
      verdict.textContent = t('editor.illegal', { detail });
    }
    setActions();
  };
  const checkSoon = () => {
    legal = false;
    verdict.dataset.state = 'pending';
    setActions();
    if (timer !== undefined) window.clearTimeout(timer);
    timer = window.setTimeout(() => void check(), CHECK_DELAY_MS);
  };

  const load = (f: string) => {
    const parts = f.trim().split(/\s+/);
    placement = parts[0] ?? placement;
    turnSel.value = parts[1] === 'b' ? 'b' : 'w';
    for (const c of castleBoxes) c.box.checked = (parts[2] ?? '').includes(c.letter);
    epInput.value = parts[3] && parts[3] !== '-' ? parts[3] : '';
    editor.load(variant, f);
    checkSoon();
  };

  const editor = new BoardEditor(
    boardHost,
    palette,
    variant,
    startFen,
    p => {
      placement = p;
      checkSoon();
    },
    f => load(f),
  );

  variantSel.addEventListener('change', () => {
    variant = variantSel.value as Variant;
    load(twoBoards(variant) ? fen() : oneBoard(fen()));
  });
  for (const c of [turnSel, epInput, ...castleBoxes.map(b => b.box)]) c.addEventListener('change', checkSoon);
  epInput.addEventListener('input', checkSoon);
  loadBtn.addEventListener('click', () => load(fenInput.value || EMPTY_FEN));
  fenInput.addEventListener('keydown', e => {
    if (e.key === 'Enter') load(fenInput.value || EMPTY_FEN);
  });
  copyBtn.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(fen());
      msg.textContent = t('editor.copied');
    } catch {
      fenInput.select();
    }
  });
  const go = (path: string) => navigate(`${path}?${new URLSearchParams({ variant, fen: fen() }).toString()}`);
  analyseBtn.addEventListener('click', () => go('/analysis'));
  solveBtn.addEventListener('click', () => go('/problems'));
  computerBtn.addEventListener('click', async () => {
    msg.textContent = '';
    try {
      const color = turnSel.value === 'w' ? 'white' : 'black';
      const r = await http<{ game: string }>('POST', '/api/computer', { variant, level: 5, color, fen: fen() });
      navigate(`/game/${r.game}`);
    } catch (e) {
      msg.textContent = errorText(e);
    }
  });
  // a private challenge link from this position: the creator plays the side to move
  challengeBtn.addEventListener('click', async () => {
    msg.textContent = '';
    try {
      const color = turnSel.value === 'w' ? 'white' : 'black';
      const r = await http<{ url: string }>('POST', '/api/seeks', { variant, time: { kind: 'unlimited' }, color, private: true, fen: fen() });
      navigate(r.url);
    } catch (e) {
      msg.textContent = errorText(e);
    }
  });
  checkSoon();
  return () => {
    seq++;
    if (timer !== undefined) window.clearTimeout(timer);
    editor.destroy();
  };
}
