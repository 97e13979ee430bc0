// The puzzle trainer: a position of one of the three games where one move
// wins clearly (the server's puzzles, docs/PUZZLES.md), found by hand or
// typed; the server judges each move and answers with the opponent's reply,
// and rates the finished puzzle (Glicko-2, one game against the puzzle), one
// rating per game. A logged-in player's rating is the account's, stored by
// the server (only the first attempt at a puzzle moves it); an anonymous
// player's is this browser's, kept in localStorage and sent with each
// attempt (puzzle-rating.ts). Legal moves and SAN come from the server
// (POST /api/analysis), as on the analysis board.

import { PuzzleRatings, currentUser, onUserChange, refreshUser } from '../account-api.js';
import { AnalysisResult, api, Puzzle, PuzzleAttempt, PuzzlePlayer } from '../api.js';
import { BoardView } from '../board.js';
import { clear, el } from '../dom.js';
import { errorText } from '../errors.js';
import { Variant, parseFen } from '../fen.js';
import { Key, t } from '../i18n.js';
import { accountEntry, isAccountAnswer, puzzleRatingText, ratingDiffText } from '../puzzle-rating.js';
import { moveInputBox, playTyped } from '../typed-move.js';
import { showSan } from './game-parts.js';
import { variantKey, variantOr, variantSelect } from '../games.js';

const STORE = 'echecs.puzzleRating.';

function storedPlayer(v: Variant): PuzzlePlayer | null {
  try {
    const p = JSON.parse(localStorage.getItem(STORE + v) ?? 'null') as PuzzlePlayer | null;
    return p && typeof p.rating === 'number' && typeof p.deviation === 'number' && typeof p.volatility === 'number' ? p : null;
  } catch {
    return null;
  }
}

function storePlayer(v: Variant, p: PuzzlePlayer): void {
  try {
    localStorage.setItem(STORE + v, JSON.stringify(p));
  } catch {
    /* private mode: the rating lasts for the page */
  }
}

const THEMES: Record<string, Key> = {
  mate: 'puzzles.theme.mate',
  capture: 'puzzles.theme.capture',
  promotion: 'puzzles.theme.promotion',
  fork: 'puzzles.theme.fork',
  push: 'puzzles.theme.push',
  lookingGlass: 'puzzles.theme.lookingGlass',
};

/** A theme's name in the page's language (mateIn2 → "Mate in 2"); an unknown one as the server names it. */
function themeText(theme: string): string {
  const n = /^mateIn(\d)$/.exec(theme);
  if (n) return t('puzzles.theme.mateIn', { n: n[1] });
  const key = THEMES[theme];
  return key ? t(key) : theme;
}

export function puzzlesPage(root: HTMLElement, q: URLSearchParams): () => void {
  let variant: Variant = variantOr(q.get('variant'));
  let puzzle: Puzzle | null = null;
  /** Every move from the puzzle's position: the solver's and the replies. */
  let moves: string[] = [];
  let last: AnalysisResult | null = null;
  let finished = false;
  let board: BoardView | null = null;
  let seq = 0;
  let destroyed = false;
  /** The account's ratings (logged in), as the server last gave them. */
  let accountRatings: PuzzleRatings = currentUser()?.puzzle_ratings ?? {};

  const page = el('div', { class: 'analysis-page puzzles-page' });
  const boardHost = el('div', { class: 'game-board' });
  const slot = el('div', { class: 'prompt-slot', 'aria-live': 'polite' });
  const thumb = el('div', { class: 'alice-thumb', hidden: '' });
  const variantSel = variantSelect(variant);
  const ratingLine = el('p', { class: 'puzzle-rating', 'data-role': 'puzzle-rating' });
  const ratingNote = el('p', { class: 'hint', 'data-role': 'puzzle-rating-note' });
  const status = el('p', { class: 'puzzle-status', 'data-role': 'puzzle-status', 'aria-live': 'polite' });
  const solutionLine = el('p', { class: 'puzzle-solution', 'data-role': 'puzzle-solution', hidden: '' });
  const themes = el('p', { class: 'puzzle-themes', 'data-role': 'puzzle-themes', hidden: '' });
  const input = moveInputBox();
  const nextBtn = el('button', { type: 'button', class: 'btn primary', 'data-action': 'next-puzzle' }, t('puzzles.next'));
  const analyseLink = el('a', { class: 'btn', 'data-link': '', 'data-action': 'analyse-puzzle', hidden: '' }, t('puzzles.analyse'));
  const side = el(
    'aside',
    { class: 'game-side' },
    el('h1', {}, t('puzzles.title')),
    el('label', { class: 'field' }, el('span', { class: 'field-label' }, t('lobby.variant')), variantSel),
    ratingLine,
    status,
    el('div', { class: 'san-row' }, input),
    solutionLine,
    themes,
    el('div', { class: 'controls' }, nextBtn, analyseLink),
    ratingNote,
  );
  const media = window.matchMedia('(max-width: 759px)');
  const onMedia = () => board?.layout();
  media.addEventListener('change', onMedia);
  page.append(el('div', { class: 'game-main' }, boardHost, slot, el('div', { class: 'alice-row' }, thumb)), side);
  clear(root);
  root.appendChild(page);

  const showRating = () => {
    const loggedIn = currentUser() !== null;
    const shown = puzzleRatingText(loggedIn, accountRatings[variant], storedPlayer(variant));
    ratingLine.textContent = t(loggedIn ? 'puzzles.ratingAccount' : 'puzzles.rating', { game: t(variantKey(variant)), rating: shown });
    ratingLine.dataset.source = loggedIn ? 'account' : 'browser';
    ratingNote.textContent = t(loggedIn ? 'puzzles.ratingNoteAccount' : 'puzzles.ratingNote');
  };
  /** The account's ratings asked of the server again (at load, after a log-in). */
  const refreshRatings = () =>
    refreshUser().then(
      me => {
        accountRatings = me?.puzzle_ratings ?? {};
        if (!destroyed) showRating();
      },
      () => undefined,
    );
  const userReady = refreshRatings();
  const offUser = onUserChange(me => {
    // a log-in gives the name only: the ratings are asked for
    if (me && !me.puzzle_ratings) return void refreshRatings();
    accountRatings = me?.puzzle_ratings ?? {};
    showRating();
  });

  const solverColor = () => (puzzle ? parseFen(puzzle.fen).turn : 'white');

  /** The position after `moves`, from the server; the solver may move unless the puzzle is over. */
  const show = async () => {
    if (!puzzle || !board) return;
    const my = ++seq;
    const r = await api.analysis({ variant, fen: puzzle.fen, moves });
    if (my !== seq || destroyed || !board) return;
    last = r;
    board.update({ fen: r.fen, legal: r.legal_moves, canMove: !finished && r.turn === solverColor(), lastMove: moves[moves.length - 1], check: r.check });
    // what is on the board, for the tests' waits: the moves shown
    page.dataset.ply = String(moves.length);
  };

  const makeBoard = () => {
    board?.destroy();
    thumb.hidden = true;
    board = new BoardView(boardHost, variant, {
      orientation: solverColor(),
      aliceThumb: thumb,
      compact: () => media.matches,
      onMove: m => void play(m),
      onPrompt: p => {
        clear(slot);
        slot.classList.toggle('active', !!p);
        if (p) slot.append(el('span', { class: 'slot-text' }, p.text));
      },
    });
  };

  const finish = async (r: PuzzleAttempt) => {
    finished = true;
    const solved = r.result === 'solved';
    page.dataset.result = r.result;
    const entry = accountEntry(r);
    if (entry) accountRatings[variant] = entry;
    else if (r.player) storePlayer(variant, r.player);
    // rated for the browser while this page thought it logged in: the session is gone
    if (!isAccountAnswer(r) && currentUser()) void refreshRatings();
    showRating();
    const verdict = (solved ? t('puzzles.solved') : t('puzzles.failed')) + ratingDiffText(r);
    status.textContent = r.rated === false ? `${verdict} ${t('puzzles.notRated')}` : verdict;
    status.classList.toggle('ok', solved);
    if (puzzle) {
      // the whole solution in SAN, from the server
      try {
        const s = await api.analysis({ variant, fen: puzzle.fen, moves: puzzle.solution });
        const first = solverColor();
        const san = puzzle.solution.map((m, i) => showSan(s.san?.[i] ?? m, i % 2 === 0 ? first : first === 'white' ? 'black' : 'white'));
        solutionLine.textContent = t('puzzles.solution', { moves: san.join(' ') });
      } catch {
        solutionLine.textContent = t('puzzles.solution', { moves: puzzle.solution.join(' ') });
      }
      solutionLine.hidden = false;
      themes.textContent = puzzle.themes.length ? t('puzzles.themes', { list: puzzle.themes.map(themeText).join(', ') }) : '';
      themes.hidden = !puzzle.themes.length;
      const params = new URLSearchParams({ variant, fen: puzzle.fen, moves: moves.join(' ') });
      analyseLink.setAttribute('href', `/analysis?${params.toString()}`);
      analyseLink.hidden = false;
    }
    await show();
  };

  /** The solver's move `m`: judged by the server with every solver move so far. */
  const play = async (m: string) => {
    if (!puzzle || finished) return;
    moves.push(m);
    const mine = moves.filter((_, i) => i % 2 === 0);
    const id = puzzle.id;
    try {
      const r = await api.puzzleAttempt(id, { moves: mine, player: storedPlayer(variant) ?? {} });
      if (destroyed || puzzle?.id !== id) return;
      if (r.result === 'partial') {
        status.textContent = t('puzzles.right');
        if (r.reply) moves.push(r.reply);
        await show();
        return;
      }
      await finish(r);
    } catch (e) {
      status.textContent = errorText(e);
      moves.pop();
      await show();
    }
  };

  const load = async () => {
    const my = ++seq;
    finished = false;
    moves = [];
    puzzle = null;
    delete page.dataset.result;
    delete page.dataset.puzzle;
    delete page.dataset.ply;
    status.classList.remove('ok');
    solutionLine.hidden = themes.hidden = analyseLink.hidden = true;
    status.textContent = '';
    showRating();
    try {
      await userReady;
      // logged in: the server picks near the account's stored rating
      const p = currentUser() ? null : storedPlayer(variant);
      const next = await api.puzzleNext(variant, p ? Math.round(p.rating) : undefined);
      if (my !== seq || destroyed) return;
      puzzle = next;
      page.dataset.puzzle = next.id;
      makeBoard();
      const find = t('puzzles.find', { color: t(solverColor() === 'white' ? 'color.white' : 'color.black') });
      status.textContent = next.attempted ? `${find} ${t('puzzles.playedBefore')}` : find;
      await show();
    } catch (e) {
      if (my !== seq || destroyed) return;
      status.textContent = errorText(e);
    }
  };

  variantSel.addEventListener('change', () => {
    variant = variantOr(variantSel.value);
    history.replaceState(null, '', `/puzzles?variant=${variant}`);
    void load();
  });
  nextBtn.addEventListener('click', () => void load());
  input.addEventListener('keydown', e => {
    if (e.key !== 'Enter' || !board || !last || finished) return;
    const typed = input.value;
    input.value = '';
    const wrong = playTyped(board, typed, last.legal_moves, last.legal_san);
    if (!wrong) return;
    input.value = typed;
    status.textContent = t(wrong, { move: typed });
  });

  void load();
  return () => {
    destroyed = true;
    offUser();
    media.removeEventListener('change', onMedia);
    board?.destroy();
  };
}
