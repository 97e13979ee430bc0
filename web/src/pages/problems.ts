// Problems: compose a diagram on an editor board (two boards for Alice),
// choose the stipulation, and let the server's solver find every solution
// (progress shown, cancel); the solution tree is the solver's own text in
// composers' notation. A problem is shared by link (?variant=&fen=&stip=)
// and exported as FEN + stipulation or as Popeye input, and Popeye input can
// be read back. No rule is checked here: the server says what is wrong.

import { Chessground } from 'chessground';
import type { Api } from 'chessground/api';
import type { Key, Piece as CgPiece } from 'chessground/types';
import { http } from '../api.js';
import { clear, el } from '../dom.js';
import { errorText } from '../errors.js';
import { BoardIndex, Color, INITIAL_FEN, Piece, Role, Variant, boardPlacement, parseFen, writePlacement } from '../fen.js';
import { t } from '../i18n.js';

const VARIANTS: Variant[] = ['chess', 'alice', 'avalanche'];
const ROLES: Role[] = ['king', 'queen', 'rook', 'bishop', 'knight', 'pawn'];
const STIPULATIONS = ['#2', '#3', '#4', 'h#2', 'h#2.5', 'h#3', 's#2', 's#3', '=2', 'h=2'];
const POLL_MS = 400;
// A problem to start from: Morphy's #2, an Alice #2 whose key works only
// through a board transfer, an Avalanche #1 mating only through the push.
const EXAMPLE: Record<Variant, { fen: string; stip: string }> = {
  chess: { fen: 'kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1', stip: '#2' },
  alice: { fen: '3o2r1/bp1Q4/s1OPOp1o/B2P4/P2PP2R/rS1k3s/4SP2/1b1K4 w - - 0 1', stip: '#2' },
  avalanche: { fen: '7k/7p/8/3N4/K7/2p5/8/B7 w - - 0 1', stip: '#1' },
};
const ALICE_B: Record<string, string> = { s: 'p', o: 'n', u: 'r', c: 'b', t: 'q', l: 'k' };

/** Outside Alice the board-B letters mean nothing: the same diagram on one board. */
function oneBoard(fen: string): string {
  const [placement, ...rest] = fen.trim().split(/\s+/);
  const mapped = (placement ?? '').replace(/[souctl]/gi, c => {
    const r = ALICE_B[c.toLowerCase()]!;
    return c === c.toLowerCase() ? r : r.toUpperCase();
  });
  return [mapped, ...rest].join(' ');
}

interface JobStatus {
  id: string;
  status: 'queued' | 'running' | 'done';
  progress: { first_moves: number; first_moves_done: number; nodes: number; solutions: number; seconds: number };
  result: { status: string } | null;
  text: string | null;
  error: string | null;
  preempted: boolean;
}

interface PopeyeTwin {
  label: string;
  variant: Variant;
  fen: string;
  stipulation: string;
}

/** A tool of the palette: a piece to put on the squares tapped, or the eraser. */
type Tool = { color: Color; role: Role } | 'erase' | null;

export function problemsPage(root: HTMLElement, q: URLSearchParams): () => void {
  let variant: Variant = (VARIANTS as string[]).includes(q.get('variant') ?? '') ? (q.get('variant') as Variant) : 'alice';
  let fen = q.get('fen') ?? EXAMPLE[variant].fen;
  let tool: Tool = null;
  let cgs: Api[] = [];
  let job: string | null = null;
  let timer: number | undefined;
  let destroyed = false;

  const page = el('div', { class: 'analysis-page problems-page' });
  const boardHost = el('div', { class: 'game-board' });
  const palette = el('div', { class: 'palette', role: 'toolbar', 'aria-label': t('problems.palette') });
  const side = el('aside', { class: 'game-side' });
  const variantSel = el('select', { name: 'variant', 'aria-label': t('lobby.variant') });
  for (const v of VARIANTS) variantSel.appendChild(el('option', { value: v }, t(`variant.${v}`)));
  variantSel.value = variant;
  const stipInput = el('input', {
    type: 'text',
    name: 'stipulation',
    class: 'stip-field',
    list: 'stipulations',
    value: q.get('stip') ?? (q.get('fen') ? '#2' : EXAMPLE[variant].stip),
    'aria-label': t('problems.stipulation'),
    autocomplete: 'off',
    spellcheck: 'false',
  });
  const stipList = el('datalist', { id: 'stipulations' });
  for (const s of STIPULATIONS) stipList.appendChild(el('option', { value: s }));
  const checkbox = (name: string, label: string, on: boolean) => {
    const box = el('input', { type: 'checkbox', name });
    box.checked = on;
    return { box, label: el('label', { class: 'check' }, box, ' ', label) };
  };
  const tries = checkbox('tries', t('problems.tries'), false);
  const setPlay = checkbox('set_play', t('problems.setPlay'), false);
  const threats = checkbox('threats', t('problems.threats'), true);
  const fenInput = el('input', { type: 'text', class: 'fen-field', name: 'fen', value: fen, 'aria-label': t('game.fen'), spellcheck: 'false' });
  const loadBtn = el('button', { type: 'button', class: 'btn small', 'data-action': 'load-fen' }, t('analysis.loadFen'));
  const solveBtn = el('button', { type: 'button', class: 'btn primary', 'data-action': 'solve' }, t('problems.solve'));
  const cancelBtn = el('button', { type: 'button', class: 'btn', 'data-action': 'cancel-solve', disabled: '' }, t('problems.cancel'));
  const msg = el('div', { class: 'form-msg', 'aria-live': 'polite' });
  const progress = el('div', { class: 'solve-progress', 'aria-live': 'polite' });
  const solution = el('pre', { class: 'solution', 'aria-label': t('problems.solution'), hidden: '' });
  const link = el('input', { type: 'text', class: 'fen-field', readonly: '', 'aria-label': t('problems.link') });
  const exportBox = el('textarea', { class: 'export-box', readonly: '', rows: '4', 'aria-label': t('problems.export') });
  const popeyeBtn = el('button', { type: 'button', class: 'btn small', 'data-action': 'popeye' }, t('problems.popeye'));
  const download = el('a', { class: 'btn small', download: 'problem.inp', hidden: '' }, t('problems.download'));
  const importBox = el('textarea', { class: 'export-box', rows: '5', name: 'popeye-input', 'aria-label': t('problems.importLabel') });
  const importBtn = el('button', { type: 'button', class: 'btn small', 'data-action': 'read-popeye' }, t('problems.read'));
  const twins = el('div', { class: 'controls twins' });

  side.append(
    el('h1', {}, t('problems.title')),
    el('p', { class: 'game-note' }, t('problems.intro')),
    el('label', { class: 'field' }, el('span', { class: 'field-label' }, t('lobby.variant')), variantSel),
    el('label', { class: 'field' }, el('span', { class: 'field-label' }, t('problems.stipulation')), stipInput, stipList),
    el('div', { class: 'controls checks' }, tries.label, setPlay.label, threats.label),
    el('div', { class: 'fen-row' }, fenInput, loadBtn),
    el('div', { class: 'controls' }, solveBtn, cancelBtn),
    msg,
    progress,
    solution,
    el('h2', {}, t('problems.share')),
    el('div', { class: 'fen-row' }, link),
    exportBox,
    el('div', { class: 'controls' }, popeyeBtn, download),
    el('details', {}, el('summary', {}, t('problems.import')), importBox, el('div', { class: 'controls' }, importBtn), twins),
  );
  page.append(el('div', { class: 'game-main' }, boardHost, palette), side);
  clear(root);
  root.appendChild(page);

  // ------------------------------------------------------------------ the editor

  /** The pieces of every board as the editor holds them, with their board. */
  const pieces = (): Map<string, Piece> => {
    const out = new Map<string, Piece>();
    cgs.forEach((cg, board) => {
      for (const [sq, p] of cg.state.pieces)
        out.set(sq, { role: p.role as Role, color: p.color as Color, board: board as BoardIndex });
    });
    return out;
  };

  /** The FEN of the editor: its placement, the other fields as typed (castling, en passant). */
  const editorFen = (): string => {
    const rest = fen.trim().split(/\s+/).slice(1);
    const fields = [writePlacement(pieces()), rest[0] ?? 'w', rest[1] ?? '-', rest[2] ?? '-', rest[3] ?? '0', rest[4] ?? '1'];
    return fields.join(' ');
  };

  const changed = () => {
    fen = editorFen();
    fenInput.value = fen;
    renderShare();
  };

  /** Alice: a square holds one piece on one board, so placing on one board empties the other. */
  const place = (board: number, key: Key, piece: CgPiece | undefined) => {
    cgs.forEach((cg, b) => {
      if (b === board) cg.setPieces(new Map([[key, piece]]));
      else if (piece) cg.setPieces(new Map([[key, undefined]]));
    });
    changed();
  };

  const makeBoards = () => {
    cgs.forEach(cg => cg.destroy());
    cgs = [];
    clear(boardHost);
    const wrap = el('div', { class: `boards variant-${variant}`, 'data-variant': variant });
    boardHost.appendChild(wrap);
    let pos;
    try {
      pos = parseFen(fen);
    } catch {
      pos = parseFen('8/8/8/8/8/8/8/8 w - - 0 1');
    }
    const n = variant === 'alice' ? 2 : 1;
    for (let i = 0; i < n; i++) {
      const col = el('div', { class: 'board-col', 'data-col': i === 0 ? 'a' : 'b' });
      if (n === 2) col.appendChild(el('div', { class: 'board-label' }, i === 0 ? t('game.boardA') : t('game.boardB')));
      const bw = el('div', { class: 'board-wrap', 'data-board': i === 0 ? 'a' : 'b' });
      const cgEl = el('div', { class: i === 1 ? 'cg-board-b' : 'cg-board-a' });
      bw.appendChild(cgEl);
      col.appendChild(bw);
      wrap.appendChild(col);
      const board = i;
      const cg = Chessground(cgEl, {
        fen: boardPlacement(pos, i as BoardIndex),
        orientation: 'white',
        coordinates: true,
        animation: { enabled: false },
        highlight: { lastMove: false, check: false },
        movable: { free: true, color: 'both', showDests: false },
        draggable: { enabled: true, deleteOnDropOff: true, showGhost: true },
        premovable: { enabled: false },
        drawable: { enabled: false },
        events: {
          change: () => changed(),
          select: key => {
            if (!tool) return;
            cg.selectSquare(null);
            place(board, key, tool === 'erase' ? undefined : { role: tool.role, color: tool.color });
          },
        },
      });
      cgs.push(cg);
      const fresh = () => cg.state.dom.bounds.clear();
      bw.addEventListener('touchstart', fresh, { capture: true, passive: true });
      bw.addEventListener('mousedown', fresh, { capture: true, passive: true });
    }
  };

  const renderPalette = () => {
    clear(palette);
    const wrap = el('div', { class: 'cg-wrap palette-pieces' });
    const toolButton = (label: string, value: Tool, content: Node) => {
      const active =
        value === tool || (value !== null && value !== 'erase' && tool !== null && tool !== 'erase' && value.role === tool.role && value.color === tool.color);
      const b = el('button', { type: 'button', class: `tool${active ? ' active' : ''}`, title: label, 'aria-label': label, 'aria-pressed': String(active) }, content);
      b.addEventListener('click', () => {
        tool = active ? null : value;
        renderPalette();
      });
      return b;
    };
    for (const color of ['white', 'black'] as Color[]) {
      const row = el('div', { class: 'palette-row' });
      for (const role of ROLES)
        row.appendChild(toolButton(`${t(`color.${color}`)} ${t(`piece.${role}`)}`, { color, role }, el('piece', { class: `${color} ${role}` })));
      wrap.appendChild(row);
    }
    palette.appendChild(wrap);
    const tools = el('div', { class: 'controls' });
    tools.append(toolButton(t('problems.erase'), 'erase', document.createTextNode('⌫ ' + t('problems.erase'))));
    const clearBtn = el('button', { type: 'button', class: 'btn small', 'data-action': 'clear-board' }, t('problems.clear'));
    clearBtn.addEventListener('click', () => setFen('8/8/8/8/8/8/8/8 w - - 0 1'));
    const startBtn = el('button', { type: 'button', class: 'btn small', 'data-action': 'start-position' }, t('analysis.reset'));
    startBtn.addEventListener('click', () => setFen(INITIAL_FEN));
    tools.append(clearBtn, startBtn);
    palette.appendChild(tools);
    palette.appendChild(el('p', { class: 'game-note' }, t('problems.paletteHelp')));
  };

  const setFen = (f: string) => {
    fen = f.trim();
    fenInput.value = fen;
    makeBoards();
    renderShare();
  };

  // ------------------------------------------------------------------ share and export

  const problemBody = () => ({
    variant,
    fen,
    stipulation: stipInput.value.trim(),
    tries: tries.box.checked,
    set_play: setPlay.box.checked,
    threats: threats.box.checked,
  });

  const renderShare = () => {
    const params = new URLSearchParams({ variant, fen, stip: stipInput.value.trim() });
    link.value = `${location.origin}/problems?${params.toString()}`;
    exportBox.value = `${t(`variant.${variant}`)}\n${fen}\n${stipInput.value.trim()}`;
    history.replaceState(null, '', `/problems?${params.toString()}`);
    download.hidden = true;
  };

  popeyeBtn.addEventListener('click', async () => {
    msg.textContent = '';
    try {
      const r = await http<{ popeye: string }>('POST', '/api/problems/popeye', problemBody());
      exportBox.value = r.popeye;
      download.setAttribute('href', URL.createObjectURL(new Blob([r.popeye], { type: 'text/plain' })));
      download.hidden = false;
    } catch (e) {
      msg.textContent = errorText(e);
    }
  });

  importBtn.addEventListener('click', async () => {
    msg.textContent = '';
    clear(twins);
    try {
      const r = await http<{ problems: { twins: PopeyeTwin[] }[] }>('POST', '/api/problems/popeye/read', { text: importBox.value });
      const list = r.problems[0]?.twins ?? [];
      const load = (tw: PopeyeTwin) => {
        stipInput.value = tw.stipulation;
        if (tw.variant !== variant) {
          variant = tw.variant;
          variantSel.value = variant;
        }
        setFen(tw.fen);
      };
      if (list.length) load(list[0]);
      if (list.length > 1)
        for (const tw of list) {
          const b = el('button', { type: 'button', class: 'btn small' }, tw.label || tw.stipulation);
          b.addEventListener('click', () => load(tw));
          twins.appendChild(b);
        }
    } catch (e) {
      msg.textContent = errorText(e);
    }
  });

  // ------------------------------------------------------------------ solving

  const stopPolling = () => {
    if (timer !== undefined) window.clearTimeout(timer);
    timer = undefined;
  };

  const showProgress = (s: JobStatus) => {
    const p = s.progress;
    if (s.status === 'queued') progress.textContent = t('problems.queued');
    else if (s.status === 'running')
      progress.textContent = t('problems.running', {
        done: p.first_moves_done,
        total: p.first_moves,
        nodes: p.nodes.toLocaleString(),
        seconds: p.seconds.toFixed(1),
      });
    else if (s.preempted) progress.textContent = t('problems.preempted');
    else if (s.error) progress.textContent = t('problems.failed', { detail: s.error });
    else progress.textContent = t(s.result?.status === 'complete' ? 'problems.complete' : 'problems.incomplete');
  };

  const poll = async () => {
    if (!job || destroyed) return;
    try {
      const s = await http<JobStatus>('GET', `/api/problems/solve/${encodeURIComponent(job)}`);
      if (destroyed) return;
      showProgress(s);
      if (s.status === 'done') {
        job = null;
        solveBtn.disabled = false;
        cancelBtn.disabled = true;
        if (s.text) {
          solution.textContent = s.text;
          solution.hidden = false;
        }
        return;
      }
    } catch (e) {
      msg.textContent = errorText(e);
      job = null;
      solveBtn.disabled = false;
      cancelBtn.disabled = true;
      return;
    }
    timer = window.setTimeout(() => void poll(), POLL_MS);
  };

  solveBtn.addEventListener('click', async () => {
    msg.textContent = '';
    solution.hidden = true;
    solution.textContent = '';
    stopPolling();
    try {
      const r = await http<{ id: string }>('POST', '/api/problems/solve', problemBody());
      job = r.id;
      solveBtn.disabled = true;
      cancelBtn.disabled = false;
      progress.textContent = t('problems.queued');
      void poll();
    } catch (e) {
      msg.textContent = errorText(e);
    }
  });

  cancelBtn.addEventListener('click', async () => {
    if (!job) return;
    try {
      await http('DELETE', `/api/problems/solve/${encodeURIComponent(job)}`);
    } catch (e) {
      msg.textContent = errorText(e);
    }
  });

  variantSel.addEventListener('change', () => {
    variant = variantSel.value as Variant;
    if (variant !== 'alice') fen = oneBoard(fen);
    setFen(fen);
  });
  loadBtn.addEventListener('click', () => setFen(fenInput.value));
  fenInput.addEventListener('keydown', e => {
    if (e.key === 'Enter') setFen(fenInput.value);
  });
  stipInput.addEventListener('input', () => renderShare());

  makeBoards();
  renderPalette();
  renderShare();

  return () => {
    destroyed = true;
    stopPolling();
    // leaving the page ends its solve: the engine is shared
    if (job) void http('DELETE', `/api/problems/solve/${encodeURIComponent(job)}`).catch(() => undefined);
    cgs.forEach(cg => cg.destroy());
  };
}
