// Analysis board: free moves from any position of the three games (legal moves
// from the server), engine evaluation on request.

import { ApiError, api } from '../api.js';
import { BoardView } from '../board.js';
import { clear, el } from '../dom.js';
import { INITIAL_FEN, Variant, parseFen } from '../fen.js';
import { t } from '../i18n.js';
import { matchFirstPart, matchInput, moveSan } from '../moves.js';

const VARIANTS: Variant[] = ['chess', 'alice', 'avalanche'];

export function analysisPage(root: HTMLElement, q: URLSearchParams): () => void {
  let variant: Variant = (VARIANTS as string[]).includes(q.get('variant') ?? '') ? (q.get('variant') as Variant) : 'chess';
  let startFen = q.get('fen') ?? INITIAL_FEN;
  let moves: string[] = [];
  let sans: string[] = [];
  let board: BoardView | null = null;
  let seq = 0;

  const page = el('div', { class: 'analysis-page' });
  const boardHost = el('div', { class: 'game-board' });
  const prompt = el('div', { class: 'move-prompt', 'aria-live': 'polite' });
  const side = el('aside', { class: 'game-side' });
  const variantSel = el('select', { name: 'variant', 'aria-label': t('lobby.variant') });
  for (const v of VARIANTS) {
    const o = el('option', { value: v }, t(`variant.${v}`));
    if (v === variant) o.selected = true;
    variantSel.appendChild(o);
  }
  const fenInput = el('input', { type: 'text', class: 'fen-field', value: startFen, 'aria-label': t('game.fen') });
  const loadBtn = el('button', { type: 'button', class: 'btn small' }, t('analysis.loadFen'));
  const msg = el('div', { class: 'form-msg', 'aria-live': 'polite' });
  const list = el('div', { class: 'move-list' });
  const evalBox = el('div', { class: 'eval', 'aria-live': 'polite' });
  const evalBtn = el('button', { type: 'button', class: 'btn primary', 'data-action': 'evaluate' }, t('analysis.evaluate'));
  const undoBtn = el('button', { type: 'button', class: 'btn', 'data-action': 'undo' }, t('analysis.undo'));
  const resetBtn = el('button', { type: 'button', class: 'btn', 'data-action': 'reset' }, t('analysis.reset'));
  const flipBtn = el('button', { type: 'button', class: 'btn', 'data-action': 'flip' }, t('game.flip'));
  const input = el('input', { class: 'san-input', type: 'text', placeholder: t('game.moveInput'), 'aria-label': t('game.moveInput') });
  const curFen = el('input', { type: 'text', class: 'fen-field', readonly: '', 'aria-label': t('game.fen') });
  side.append(
    el('h1', {}, t('analysis.title')),
    el('label', { class: 'field' }, el('span', { class: 'field-label' }, t('lobby.variant')), variantSel),
    el('div', { class: 'fen-row' }, fenInput, loadBtn),
    msg,
    list,
    el('div', { class: 'controls' }, undoBtn, resetBtn, flipBtn),
    el('div', { class: 'controls' }, evalBtn),
    evalBox,
    el('div', { class: 'fen-row' }, el('label', {}, t('game.fen')), curFen),
  );
  page.append(el('div', { class: 'game-main' }, boardHost, prompt, el('div', { class: 'san-row' }, input)), side);
  clear(root);
  root.appendChild(page);

  const makeBoard = () => {
    board?.destroy();
    board = new BoardView(boardHost, variant, {
      orientation: 'white',
      onMove: m => {
        moves.push(m);
        void refresh();
      },
      onPrompt: text => (prompt.textContent = text ?? ''),
    });
  };

  const refresh = async () => {
    const my = ++seq;
    msg.textContent = '';
    evalBox.textContent = '';
    board?.setArrows([], 0);
    board?.setArrows([], 1);
    try {
      const r = await api.analysis({ variant, fen: startFen, moves });
      if (my !== seq || !board) return;
      sans = r.san ?? moves;
      board.update({ fen: r.fen, legal: r.legal_moves, canMove: true, lastMove: moves[moves.length - 1], check: r.check });
      curFen.value = r.fen;
    } catch (e) {
      if (my !== seq || !board) return;
      if (e instanceof ApiError && e.status === 400) {
        msg.textContent = t('analysis.badFen');
        moves.pop();
      } else {
        msg.textContent = t('analysis.noServer');
      }
      try {
        parseFen(startFen);
        if (!moves.length) board.update({ fen: startFen, legal: [], canMove: false });
      } catch {
        /* keep the board as it is */
      }
      curFen.value = startFen;
    }
    clear(list);
    sans.forEach((s, i) => list.appendChild(el('span', { class: 'move' }, `${i % 2 === 0 ? `${Math.floor(i / 2) + 1}. ` : ''}${s}`)));
  };

  variantSel.addEventListener('change', () => {
    variant = variantSel.value as Variant;
    startFen = INITIAL_FEN;
    fenInput.value = startFen;
    moves = [];
    makeBoard();
    void refresh();
  });
  loadBtn.addEventListener('click', () => {
    try {
      parseFen(fenInput.value);
    } catch {
      msg.textContent = t('analysis.badFen');
      return;
    }
    startFen = fenInput.value.trim();
    moves = [];
    void refresh();
  });
  undoBtn.addEventListener('click', () => {
    moves.pop();
    void refresh();
  });
  resetBtn.addEventListener('click', () => {
    moves = [];
    void refresh();
  });
  flipBtn.addEventListener('click', () => board?.flip());
  input.addEventListener('keydown', e => {
    if (e.key !== 'Enter' || !board) return;
    const pos = board.position();
    const legal = board.legalMoves();
    let m = matchInput(pos, legal, input.value);
    if (!m && variant === 'avalanche') {
      const f = matchFirstPart(pos, legal, input.value);
      if (f.length === 1) m = f[0];
    }
    if (!m) {
      msg.textContent = t('game.badMove', { move: input.value });
      return;
    }
    input.value = '';
    board.playKeyboard(m);
  });
  evalBtn.addEventListener('click', async () => {
    evalBox.textContent = t('analysis.evaluating');
    try {
      const r = await api.evaluate({ variant, fen: curFen.value || startFen, movetime_ms: 1000 });
      const parts: string[] = [];
      // the server scores for the side to move; shown from White's side, as on lichess
      const sign = board?.position().turn === 'black' ? -1 : 1;
      if (r.mate !== null && r.mate !== undefined) parts.push(t('analysis.mate', { n: r.mate }));
      else if (r.score_cp !== null && r.score_cp !== undefined) {
        const cp = sign * r.score_cp;
        parts.push(t('analysis.eval', { score: (cp >= 0 ? '+' : '') + (cp / 100).toFixed(2) }));
      }
      if (r.best_move) {
        const legal = board?.legalMoves() ?? [];
        const m = legal.find(x => x.raw === r.best_move);
        parts.push(t('analysis.best', { move: m && board ? moveSan(board.position(), m, legal) : r.best_move }));
        const first = r.best_move.replace(/^[qrbn]:/, '').split(',')[0];
        const orig = first.slice(0, 2);
        // Alice: on the board where the piece stands
        board?.setArrows([{ orig, dest: first.slice(2, 4), brush: 'blue' }], board.position().pieces.get(orig)?.board ?? 0);
      }
      evalBox.textContent = parts.join(' · ');
    } catch {
      evalBox.textContent = t('analysis.unavailable');
    }
  });

  makeBoard();
  void refresh();
  return () => board?.destroy();
}
