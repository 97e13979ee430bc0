// The player's preferences, remembered in this browser (localStorage):
// notation, sound, move confirmation, board and piece themes, board size and
// the boards flipped per game. Pages read them and listen for changes.

import type { NotationStyle } from './notation.js';

export type BoardTheme = 'brown' | 'blue' | 'green' | 'grey';
export type PieceSet = 'cburnett' | 'fontawesome';

export interface Settings {
  notation: NotationStyle;
  sound: boolean;
  /** Correspondence games: a move made on the board waits for a confirmation. */
  confirmCorrespondence: boolean;
  board: BoardTheme;
  pieces: PieceSet;
  /** Board size as a fraction of the largest that fits (resize handle), 0.5–1. */
  boardScale: number;
  /** The chat panels are shown (the server may have chat off anyway). */
  chat: boolean;
  /** A browser notification when a game waits for this player's move (asked permission). */
  notify: boolean;
}

export const BOARD_THEMES: BoardTheme[] = ['brown', 'blue', 'green', 'grey'];
export const PIECE_SETS: PieceSet[] = ['cburnett', 'fontawesome'];

const KEY = 'echecs.settings';
const SOUND_KEY = 'echecs.sound';
const FLIP_KEY = 'echecs.flipped';

const DEFAULTS: Settings = {
  notation: 'figurine',
  sound: true,
  confirmCorrespondence: true,
  board: 'brown',
  pieces: 'cburnett',
  boardScale: 1,
  chat: true,
  notify: false,
};

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/** Keeps only known values: a hand-edited or older store never breaks the page. */
export function sanitize(raw: unknown): Settings {
  const r = (raw && typeof raw === 'object' ? raw : {}) as Partial<Record<keyof Settings, unknown>>;
  const s = { ...DEFAULTS };
  if (r.notation === 'figurine' || r.notation === 'letters') s.notation = r.notation;
  if (typeof r.sound === 'boolean') s.sound = r.sound;
  if (typeof r.confirmCorrespondence === 'boolean') s.confirmCorrespondence = r.confirmCorrespondence;
  if (BOARD_THEMES.includes(r.board as BoardTheme)) s.board = r.board as BoardTheme;
  if (PIECE_SETS.includes(r.pieces as PieceSet)) s.pieces = r.pieces as PieceSet;
  if (typeof r.chat === 'boolean') s.chat = r.chat;
  if (typeof r.notify === 'boolean') s.notify = r.notify;
  if (typeof r.boardScale === 'number' && Number.isFinite(r.boardScale))
    s.boardScale = Math.min(1, Math.max(0.5, r.boardScale));
  return s;
}

let current: Settings | null = null;
const listeners = new Set<(s: Settings) => void>();

export function settings(): Settings {
  if (current) return current;
  const st = storage();
  let raw: unknown = {};
  try {
    raw = JSON.parse(st?.getItem(KEY) ?? '{}');
  } catch {
    raw = {};
  }
  current = sanitize(raw);
  // the sound switch was stored on its own before the settings existed
  const sound = st?.getItem(SOUND_KEY);
  if (sound === 'on' || sound === 'off') current.sound = sound === 'on';
  return current;
}

export function setSetting<K extends keyof Settings>(key: K, value: Settings[K]): void {
  const s = sanitize({ ...settings(), [key]: value });
  current = s;
  const st = storage();
  try {
    st?.setItem(KEY, JSON.stringify(s));
    st?.setItem(SOUND_KEY, s.sound ? 'on' : 'off');
  } catch {
    /* storage full or refused: the setting lasts for this page */
  }
  listeners.forEach(f => f(s));
}

export function onSettings(f: (s: Settings) => void): () => void {
  listeners.add(f);
  return () => listeners.delete(f);
}

/** The games whose board this browser flipped (most recent last, at most 200). */
function flippedGames(): string[] {
  try {
    const v = JSON.parse(storage()?.getItem(FLIP_KEY) ?? '[]') as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

export function isFlipped(game: string): boolean {
  return flippedGames().includes(game);
}

export function setFlipped(game: string, flipped: boolean): void {
  const list = flippedGames().filter(g => g !== game);
  if (flipped) list.push(game);
  try {
    storage()?.setItem(FLIP_KEY, JSON.stringify(list.slice(-200)));
  } catch {
    /* ignore */
  }
}

/** Applies the board and piece themes and the board size to the document (CSS classes and a variable). */
export function applyTheme(s: Settings = settings()): void {
  if (typeof document === 'undefined') return;
  const b = document.body;
  for (const t of BOARD_THEMES) b.classList.toggle(`board-${t}`, s.board === t);
  for (const p of PIECE_SETS) b.classList.toggle(`pieces-${p}`, s.pieces === p);
  document.documentElement.style.setProperty('--board-scale', String(s.boardScale));
}
