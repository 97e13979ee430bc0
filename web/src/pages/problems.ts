// Problems: compose a diagram on an editor board (two boards for Alice),
// choose the stipulation, and let the server's solver find every solution
// (progress shown, cancel); the solution tree is the solver's own text in
// composers' notation. A problem is shared by link (?variant=&fen=&stip=)
// and exported as FEN + stipulation or as Popeye input, and Popeye input can
// be read back. No rule is checked here: the server says what is wrong.

import { http } from '../api.js';
import { clear, el } from '../dom.js';
import { BoardEditor, oneBoard } from '../editor.js';
import { errorText } from '../errors.js';
import { Variant } from '../fen.js';
import { t } from '../i18n.js';
import { gameInfo, twoBoards, variantKey, variantOr, variantSelect } from '../games.js';

const STIPULATIONS = ['#2', '#3', '#4', 'h#2', 'h#2.5', 'h#3', 's#2', 's#3', '=2', 'h=2'];
const POLL_MS = 400;
// A problem to start from: Morphy's #2, an Alice #2 whose key works only
// through a board transfer, an Avalanche #1 mating only through the push.
const EXAMPLE: Record<Variant, { fen: string; stip: string } | undefined> = {
  chess: { fen: 'kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1', stip: '#2' },
  alice: { fen: '3o2r1/bp1Q4/s1OPOp1o/B2P4/P2PP2R/rS1k3s/4SP2/1b1K4 w - - 0 1', stip: '#2' },
  avalanche: { fen: '7k/7p/8/3N4/K7/2p5/8/B7 w - - 0 1', stip: '#1' },
};
interface JobStatus {
  id: string;
  status: 'queued' | 'running' | 'done';
  progress: { first_moves: number; first_moves_done: number; nodes: number; solutions: number; seconds: number };
  /** Keys and solutions as the solver proves them (the first 100), before the whole result. */
  found?: string[];
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
  /** Popeye's halfduplex (a duplex's second twin): the colours exchange their parts. */
  halfduplex?: boolean;
  /** Popeye's postkeyplay: the diagram is the position after the key. */
  postkey?: boolean;
  /** Popeye's "threat n": every attacker's move threatens to win within n moves (0: no such rule). */
  threat?: number;
  /** Popeye's "maxflightsquares n" (null: no such rule). */
  maxflights?: number | null;
  /** Popeye's castlingmutuallyexclusive pairs, e.g. "a1h8". */
  exclusive_castlings?: string[];
}

/** Popeye's options the page has no control for, kept from an import and sent with each solve. */
interface KeptOptions {
  maxflights?: number;
  exclusive_castlings?: string[];
}

export function problemsPage(root: HTMLElement, q: URLSearchParams): () => void {
  let variant: Variant = variantOr(q.get('variant'), 'alice');
  const example = (v: Variant) => EXAMPLE[v] ?? { fen: gameInfo(v).start_fen, stip: '#2' };
  let fen = q.get('fen') ?? example(variant).fen;
  let job: string | null = null;
  let timer: number | undefined;
  let destroyed = false;

  const page = el('div', { class: 'analysis-page problems-page' });
  const boardHost = el('div', { class: 'game-board' });
  const palette = el('div', { class: 'palette', role: 'toolbar', 'aria-label': t('problems.palette') });
  const side = el('aside', { class: 'game-side' });
  const variantSel = variantSelect(variant);
  const stipInput = el('input', {
    type: 'text',
    name: 'stipulation',
    class: 'stip-field',
    list: 'stipulations',
    value: q.get('stip') ?? (q.get('fen') ? '#2' : example(variant).stip),
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
  const halfDuplex = checkbox('halfduplex', t('problems.halfDuplex'), q.get('halfduplex') === '1');
  const postKey = checkbox('postkey', t('problems.postKey'), q.get('postkey') === '1');
  // Popeye's "threat n" (0: none), kept as a field so that an imported problem solves as Popeye solves it
  const threatMax = el('input', { type: 'number', name: 'threat', min: '0', max: '60', class: 'small-number', value: String(Number(q.get('threat')) || 0) });
  const threatLabel = el('label', { class: 'check' }, t('problems.threatMax'), ' ', threatMax);
  const threatValue = () => Math.max(0, Math.min(60, Math.floor(Number(threatMax.value) || 0)));
  let kept: KeptOptions = {};
  const keptNote = el('p', { class: 'game-note kept-options', hidden: '' });
  const showKept = () => {
    const words = [
      ...(kept.maxflights !== undefined ? [`maxflightsquares ${kept.maxflights}`] : []),
      ...(kept.exclusive_castlings ?? []).map(c => `castlingmutuallyexclusive ${c}`),
    ];
    keptNote.textContent = words.length ? `${t('problems.keptOptions')} ${words.join(', ')}` : '';
    keptNote.hidden = words.length === 0;
  };
  const fenInput = el('input', { type: 'text', class: 'fen-field', name: 'fen', value: fen, 'aria-label': t('game.fen'), spellcheck: 'false' });
  const loadBtn = el('button', { type: 'button', class: 'btn small', 'data-action': 'load-fen' }, t('analysis.loadFen'));
  const solveBtn = el('button', { type: 'button', class: 'btn primary', 'data-action': 'solve' }, t('problems.solve'));
  const cancelBtn = el('button', { type: 'button', class: 'btn', 'data-action': 'cancel-solve', disabled: '' }, t('problems.cancel'));
  const msg = el('div', { class: 'form-msg', 'aria-live': 'polite' });
  const progress = el('div', { class: 'solve-progress', 'aria-live': 'polite' });
  // focusable: a long line makes it scroll, and a keyboard must reach it (axe: scrollable-region-focusable)
  const solution = el('pre', { class: 'solution', 'aria-label': t('problems.solution'), tabindex: '0', hidden: '' });
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
    el('div', { class: 'controls checks' }, tries.label, setPlay.label, threats.label, halfDuplex.label, postKey.label, threatLabel),
    keptNote,
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

  /** The FEN of the editor: its placement, the other fields as typed (castling, en passant). */
  const withPlacement = (placement: string): string => {
    const rest = fen.trim().split(/\s+/).slice(1);
    return [placement, rest[0] ?? 'w', rest[1] ?? '-', rest[2] ?? '-', rest[3] ?? '0', rest[4] ?? '1'].join(' ');
  };

  const setFen = (f: string) => {
    fen = f.trim();
    fenInput.value = fen;
    editor.load(variant, fen);
    renderShare();
  };

  const editor = new BoardEditor(
    boardHost,
    palette,
    variant,
    fen,
    placement => {
      fen = withPlacement(placement);
      fenInput.value = fen;
      renderShare();
    },
    f => setFen(f),
  );

  // ------------------------------------------------------------------ share and export

  const problemBody = () => ({
    variant,
    fen,
    stipulation: stipInput.value.trim(),
    tries: tries.box.checked,
    set_play: setPlay.box.checked,
    threats: threats.box.checked,
    halfduplex: halfDuplex.box.checked,
    postkey: postKey.box.checked,
    threat: threatValue(),
    ...kept,
  });

  const renderShare = () => {
    const params = new URLSearchParams({ variant, fen, stip: stipInput.value.trim() });
    if (halfDuplex.box.checked) params.set('halfduplex', '1');
    if (postKey.box.checked) params.set('postkey', '1');
    if (threatValue() > 0) params.set('threat', String(threatValue()));
    link.value = `${location.origin}/problems?${params.toString()}`;
    exportBox.value = `${t(variantKey(variant))}\n${fen}\n${stipInput.value.trim()}`;
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
        halfDuplex.box.checked = tw.halfduplex === true;
        postKey.box.checked = tw.postkey === true;
        threatMax.value = String(tw.threat ?? 0);
        kept = {
          ...(typeof tw.maxflights === 'number' ? { maxflights: tw.maxflights } : {}),
          ...(tw.exclusive_castlings?.length ? { exclusive_castlings: tw.exclusive_castlings } : {}),
        };
        showKept();
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
      if (s.status === 'running' && s.found?.length) {
        // what is proven so far, until the whole solution replaces it
        solution.textContent = s.found.join('\n');
        solution.dataset.partial = 'true';
        solution.hidden = false;
      }
      if (s.status === 'done') {
        delete solution.dataset.partial;
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

  // Another game or another diagram is another problem: the kept options go.
  const forgetKept = () => {
    kept = {};
    showKept();
  };
  variantSel.addEventListener('change', () => {
    forgetKept();
    variant = variantSel.value as Variant;
    if (!twoBoards(variant)) fen = oneBoard(fen);
    setFen(fen);
  });
  loadBtn.addEventListener('click', () => {
    forgetKept();
    setFen(fenInput.value);
  });
  fenInput.addEventListener('keydown', e => {
    if (e.key === 'Enter') {
      forgetKept();
      setFen(fenInput.value);
    }
  });
  // The kept options are the imported problem's: another stipulation may not take them
  // (maxflightsquares is battle play's), so they go with an edit, visibly.
  stipInput.addEventListener('input', () => {
    forgetKept();
    renderShare();
  });
  halfDuplex.box.addEventListener('change', () => renderShare());
  postKey.box.addEventListener('change', () => renderShare());
  threatMax.addEventListener('input', () => renderShare());

  renderShare();

  return () => {
    destroyed = true;
    stopPolling();
    // leaving the page ends its solve: the engine is shared
    if (job) void http('DELETE', `/api/problems/solve/${encodeURIComponent(job)}`).catch(() => undefined);
    editor.destroy();
  };
}
