// Analysis board: free moves from any position of the three games (legal
// moves and SAN from the server) kept as a tree of variations (tree.ts:
// branch, promote, delete, PGN export), keyboard and button navigation, the
// engine's evaluation on request. Opened
// from a finished game (`?game=<id>&ply=N`) it receives the whole move list;
// a game still being played is refused (fair play), as the server does;
// when the game was reviewed, its evaluation graph and marks come along
// (analysis-review.ts).
// Also `?variant=&fen=&moves=` (moves: coordinate strings separated by spaces),
// and PGN pasted or uploaded (pgn-import.ts).

import { AnalysisResult, ApiError, api } from '../api.js';
import { BoardView } from '../board.js';
import { clear, el } from '../dom.js';
import { errorText } from '../errors.js';
import { Color, INITIAL_FEN, Variant, opposite, parseFen } from '../fen.js';
import { t } from '../i18n.js';
import { moveInputBox, playTyped } from '../typed-move.js';
import { showSan } from './game-parts.js';
import { pgnImportPanel } from './pgn-import.js';
import { MoveTree, Path, TreeNode } from '../tree.js';
import { LiveAnalysis } from './analysis-live.js';
import { AnalysisReview } from './analysis-review.js';
import { gameInfo, variantKey, variantOr, variantSelect } from '../games.js';

export function analysisPage(root: HTMLElement, q: URLSearchParams): () => void {
  let variant: Variant = variantOr(q.get('variant'));
  let startFen = q.get('fen') ?? INITIAL_FEN;
  /** The moves: a tree of variations whose current node is on the board. */
  let tree = new MoveTree();
  /** A line to load into the tree (coordinates; its SAN comes from the server), and where to stand in it. */
  let pending: { moves: string[]; ply: number } | null = null;
  const initialMoves = (q.get('moves') ?? '').split(/\s+/).filter(Boolean);
  if (initialMoves.length) pending = { moves: initialMoves, ply: initialMoves.length };
  let last: AnalysisResult | null = null;
  let board: BoardView | null = null;
  let seq = 0;
  let destroyed = false;

  const page = el('div', { class: 'analysis-page' });
  const boardHost = el('div', { class: 'game-board' });
  const slot = el('div', { class: 'prompt-slot', 'aria-live': 'polite' });
  const side = el('aside', { class: 'game-side' });
  const variantSel = variantSelect(variant);
  const fenInput = el('input', { type: 'text', class: 'fen-field', value: startFen, 'aria-label': t('game.fen') });
  const loadBtn = el('button', { type: 'button', class: 'btn small' }, t('analysis.loadFen'));
  const msg = el('div', { class: 'form-msg', 'aria-live': 'polite' });
  const list = el('div', { class: 'move-list', role: 'list', 'aria-label': t('game.moves') });
  const evalBox = el('div', { class: 'eval', 'aria-live': 'polite' });
  const evalBtn = el('button', { type: 'button', class: 'btn primary', 'data-action': 'evaluate' }, t('analysis.evaluate'));
  const backBtn = el('button', { type: 'button', class: 'btn', 'data-action': 'prev' }, t('game.prev'));
  const fwdBtn = el('button', { type: 'button', class: 'btn', 'data-action': 'next' }, t('game.next'));
  const undoBtn = el('button', { type: 'button', class: 'btn', 'data-action': 'undo' }, t('analysis.undo'));
  const resetBtn = el('button', { type: 'button', class: 'btn', 'data-action': 'reset' }, t('analysis.reset'));
  const flipBtn = el('button', { type: 'button', class: 'btn', 'data-action': 'flip' }, t('game.flip'));
  const promoteBtn = el('button', { type: 'button', class: 'btn', 'data-action': 'promote' }, t('analysis.promote'));
  const pgnBtn = el('button', { type: 'button', class: 'btn small', 'data-action': 'export-pgn' }, t('analysis.exportPgn'));
  const pgnBox = el('textarea', { class: 'export-box', readonly: '', rows: '4', hidden: '', 'aria-label': t('analysis.pgn') });
  const linkField = el('input', { type: 'text', class: 'link-field', readonly: '', 'aria-label': t('analysis.link') });
  const input = moveInputBox();
  const curFen = el('input', { type: 'text', class: 'fen-field', readonly: '', 'aria-label': t('game.fen') });
  const gameNote = el('p', { class: 'game-note', hidden: '' });
  // a line of the continuous analysis clicked: its moves played into the tree
  const live = new LiveAnalysis((moves, san) => {
    moves.forEach((m, i) => tree.play(m, san[i] ?? m));
    void refresh();
  });
  side.append(
    el('h1', {}, t('analysis.title')),
    gameNote,
    el('label', { class: 'field' }, el('span', { class: 'field-label' }, t('lobby.variant')), variantSel),
    el('div', { class: 'fen-row' }, fenInput, loadBtn),
    msg,
    list,
    el('div', { class: 'controls' }, backBtn, fwdBtn, undoBtn, resetBtn, flipBtn, promoteBtn),
    el('div', { class: 'controls' }, evalBtn),
    evalBox,
    live.element,
    el('div', { class: 'san-row' }, input),
    el('div', { class: 'fen-row' }, el('label', {}, t('game.fen')), curFen),
    el('div', { class: 'fen-row' }, el('label', {}, t('analysis.link')), linkField),
    el('div', { class: 'controls' }, pgnBtn),
    pgnBox,
    pgnImportPanel(g => {
      if (!g.variant || !g.initial_fen || !g.moves) return;
      variant = g.variant;
      variantSel.value = variant;
      startFen = g.initial_fen;
      fenInput.value = startFen;
      tree = MoveTree.fromLine(g.moves);
      tree.toEnd();
      makeBoard();
      void refresh();
    }),
  );
  // the game's review: a click in its graph goes to that position of the game
  const gameReview = new AnalysisReview(path => {
    tree.path = path;
    void refresh();
  });
  // Alice on a narrow screen: one board large, the other as a thumbnail under it
  const thumb = el('div', { class: 'alice-thumb', hidden: '' });
  const media = window.matchMedia('(max-width: 759px)');
  const onMedia = () => board?.layout();
  media.addEventListener('change', onMedia);
  page.append(el('div', { class: 'game-main' }, boardHost, slot, el('div', { class: 'alice-row' }, thumb), gameReview.element), side);
  clear(root);
  root.appendChild(page);

  const makeBoard = () => {
    board?.destroy();
    thumb.hidden = true;
    board = new BoardView(boardHost, variant, {
      orientation: 'white',
      aliceThumb: thumb,
      compact: () => media.matches,
      onMove: m => {
        // the same move as the tree's is followed; another one starts a variation
        const i = last?.legal_moves.indexOf(m) ?? -1;
        tree.play(m, (i >= 0 ? last?.legal_san?.[i] : undefined) ?? m);
        void refresh();
      },
      onPrompt: p => {
        clear(slot);
        slot.classList.toggle('active', !!p);
        if (!p) return;
        slot.append(el('span', { class: 'slot-text' }, p.text));
        if (p.cancel) {
          const c = el('button', { type: 'button', class: 'btn small', 'data-action': 'cancel-move' }, t('game.cancel'));
          c.addEventListener('click', p.cancel);
          slot.append(c);
        }
      },
    });
  };

  const startInfo = (): { first: Color; fullmove: number } => {
    try {
      const p = parseFen(startFen);
      return { first: p.turn, fullmove: p.fullmove };
    } catch {
      return { first: 'white', fullmove: 1 };
    }
  };

  /** The tree as lichess shows it: the main line, each variation in brackets after the move it replaces. */
  const renderList = () => {
    clear(list);
    const { first, fullmove } = startInfo();
    const current = tree.path.join('.');
    const cell = (node: TreeNode, path: Path, ply: number, numbered: boolean) => {
      const mover = ply % 2 === 0 ? first : opposite(first);
      const idx = ply + (first === 'black' ? 1 : 0);
      const no = fullmove + Math.floor(idx / 2);
      const prefix = idx % 2 === 0 ? `${no}. ` : numbered ? `${no}… ` : '';
      const key = path.join('.');
      const c = el(
        'span',
        { class: `move${key === current ? ' current' : ''}`, role: 'listitem', 'data-ply': String(ply + 1), 'data-path': key, 'data-san': node.san },
        prefix + showSan(node.san, mover),
      );
      c.addEventListener('click', () => {
        tree.path = path;
        void refresh();
      });
      return c;
    };
    const walk = (host: HTMLElement, node: TreeNode, path: Path, ply: number, numbered: boolean) => {
      const main = node.children[0];
      if (!main) return;
      host.appendChild(cell(main, [...path, 0], ply, numbered));
      node.children.slice(1).forEach((v, k) => {
        const box = el('span', { class: 'variation' });
        box.appendChild(cell(v, [...path, k + 1], ply, true));
        walk(box, v, [...path, k + 1], ply + 1, false);
        host.appendChild(box);
      });
      walk(host, main, [...path, 0], ply + 1, node.children.length > 1);
    };
    walk(list, tree.root, [], 0, true);
    backBtn.disabled = tree.path.length === 0;
    fwdBtn.disabled = tree.current().children.length === 0;
    promoteBtn.disabled = !tree.path.some(i => i !== 0);
    undoBtn.disabled = tree.path.length === 0;
    const params = new URLSearchParams({ variant, fen: startFen, moves: tree.line().join(' ') });
    linkField.value = `${location.origin}/analysis?${params.toString()}`;
    gameReview.update(tree, list);
  };

  const refresh = async () => {
    const my = ++seq;
    msg.textContent = '';
    evalBox.textContent = '';
    board?.setArrows([], 0);
    board?.setArrows([], 1);
    try {
      if (pending) {
        // a line from a game, a link or a PGN: the server gives its SAN once
        const p = pending;
        pending = null;
        const full = await api.analysis({ variant, fen: startFen, moves: p.moves });
        if (my !== seq || destroyed) return;
        tree = MoveTree.fromLine(p.moves.map((uci, i) => ({ uci, san: full.san?.[i] ?? uci })));
        tree.path = tree.path.slice(0, p.ply);
      }
      const moves = tree.line();
      const r = await api.analysis({ variant, fen: startFen, moves });
      if (my !== seq || !board || destroyed) return;
      last = r;
      board.update({ fen: r.fen, legal: r.legal_moves, canMove: true, lastMove: moves[moves.length - 1], check: r.check });
      curFen.value = r.fen;
      const shown = parseFen(r.fen);
      live.setPosition({ variant, fen: startFen, moves, turn: shown.turn, fullmove: shown.fullmove });
    } catch (e) {
      if (my !== seq || !board || destroyed) return;
      msg.textContent = e instanceof ApiError && e.status === 404 ? t('analysis.noServer') : errorText(e);
      last = null;
      live.setPosition(null);
      try {
        parseFen(startFen);
        board.update({ fen: startFen, legal: [], canMove: false });
      } catch {
        /* keep the board as it is */
      }
      curFen.value = startFen;
    }
    renderList();
  };

  variantSel.addEventListener('change', () => {
    variant = variantSel.value as Variant;
    startFen = INITIAL_FEN;
    fenInput.value = startFen;
    tree = new MoveTree();
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
    tree = new MoveTree();
    void refresh();
  });
  const nav = (f: () => void) => {
    f();
    void refresh();
  };
  backBtn.addEventListener('click', () => nav(() => tree.back()));
  fwdBtn.addEventListener('click', () => nav(() => tree.forward()));
  // take back: the current move and what follows it leave the tree
  undoBtn.addEventListener('click', () => nav(() => tree.remove()));
  resetBtn.addEventListener('click', () => nav(() => tree.toStart()));
  promoteBtn.addEventListener('click', () => nav(() => tree.promote()));
  const onKey = (e: KeyboardEvent) => {
    const target = e.target as HTMLElement | null;
    if (target && ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)) return;
    const act = { ArrowLeft: () => tree.back(), ArrowRight: () => tree.forward(), Home: () => tree.toStart(), End: () => tree.toEnd() }[e.key];
    if (!act) return;
    e.preventDefault();
    nav(act);
  };
  document.addEventListener('keydown', onKey);
  pgnBtn.addEventListener('click', () => {
    const { first, fullmove } = startInfo();
    const tags: [string, string][] = [
      ['Event', 'Analysis'],
      ['Site', location.origin],
      ['Result', '*'],
    ];
    const pgnName = gameInfo(variant).pgn;
    if (pgnName) tags.push(['Variant', pgnName]);
    if (startFen !== INITIAL_FEN) tags.push(['SetUp', '1'], ['FEN', startFen]);
    const head = tags.map(([k, v]) => `[${k} "${v.replace(/["\\]/g, c => '\\' + c)}"]`).join('\n');
    pgnBox.value = `${head}\n\n${tree.movetext(first === 'white', fullmove)} *\n`;
    pgnBox.hidden = false;
  });
  flipBtn.addEventListener('click', () => board?.flip());
  input.addEventListener('keydown', e => {
    if (e.key !== 'Enter' || !board || !last) return;
    const typed = input.value;
    input.value = '';
    const wrong = playTyped(board, typed, last.legal_moves, last.legal_san);
    if (!wrong) return;
    input.value = typed;
    msg.textContent = t(wrong, { move: typed });
  });
  evalBtn.addEventListener('click', async () => {
    evalBox.textContent = t('analysis.evaluating');
    try {
      const r = await api.evaluate({ variant, fen: startFen, moves: tree.line(), movetime_ms: 1000 });
      const parts: string[] = [];
      // the server scores for the side to move; shown from White's side, as on lichess
      const turn = board?.position().turn ?? 'white';
      const sign = turn === 'black' ? -1 : 1;
      if (r.mate !== null && r.mate !== undefined) parts.push(t('analysis.mate', { n: r.mate }));
      else if (r.score_cp !== null && r.score_cp !== undefined) {
        const cp = sign * r.score_cp;
        parts.push(t('analysis.eval', { score: (cp >= 0 ? '+' : '') + (cp / 100).toFixed(2) }));
      }
      if (r.best_move && last) {
        const i = last.legal_moves.indexOf(r.best_move);
        const san = i >= 0 ? last.legal_san?.[i] : undefined;
        parts.push(t('analysis.best', { move: san ? showSan(san, turn) : r.best_move }));
        const firstPart = r.best_move.replace(/^[qrbn]:/, '').split(',')[0];
        const orig = firstPart.slice(0, 2);
        // Alice: on the board where the piece stands
        board?.setArrows([{ orig, dest: firstPart.slice(2, 4), brush: 'blue' }], board.position().pieces.get(orig)?.board ?? 0);
      }
      evalBox.textContent = parts.join(' · ');
    } catch (e) {
      evalBox.textContent = errorText(e);
    }
  });

  const gameId = q.get('game');
  if (gameId) {
    // from a game: its initial position and all its moves, once it is over
    evalBtn.disabled = true;
    live.setEnabled(false);
    api.game(gameId).then(
      st => {
        if (destroyed) return;
        gameNote.hidden = false;
        if (st.status === 'live') {
          gameNote.textContent = t('analysis.liveGame');
          gameNote.classList.add('fair-play');
          // nothing of the live game is shown: no engine, no free moves on its position
          return;
        }
        gameNote.textContent = `${t('analysis.fromGame')} · ${t(variantKey(st.variant))}`;
        evalBtn.disabled = false;
        live.setEnabled(true);
        variant = st.variant;
        variantSel.value = variant;
        startFen = st.initial_fen;
        fenInput.value = startFen;
        const ply = Number(q.get('ply'));
        tree = MoveTree.fromLine(st.moves);
        tree.toEnd();
        if (q.has('ply') && Number.isInteger(ply) && ply >= 0 && ply <= st.moves.length) tree.path = tree.path.slice(0, ply);
        makeBoard();
        void refresh();
        gameReview.load(gameId, st.moves.map(m => m.uci), () => {
          if (!destroyed) renderList();
        });
      },
      () => {
        if (destroyed) return;
        gameNote.hidden = false;
        gameNote.textContent = t('analysis.notFound');
      },
    );
    makeBoard();
  } else {
    makeBoard();
    void refresh();
  }
  return () => {
    destroyed = true;
    live.destroy();
    document.removeEventListener('keydown', onKey);
    media.removeEventListener('change', onMedia);
    board?.destroy();
  };
}
