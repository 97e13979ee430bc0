// Client of the server API (docs/API.md): HTTP JSON endpoints and one
// WebSocket per tab that reconnects by itself and re-joins what it watched.

import { ClockSync } from './clock-sync.js';
import type { Color, Variant } from './fen.js';
import type { MessageOf, ServerMessage, ServerMessageType, WireGameSummary, WireLobbyChange, WireSeek, WireSwissRound, WireSwissTournament, WireTournament } from './protocol.js';

export type TimeControl =
  | { kind: 'realtime'; minutes: number; increment: number }
  | { kind: 'correspondence'; days: number }
  | { kind: 'unlimited' };

export interface PlayerInfo {
  name: string;
  computer: boolean;
  level: number | null;
  connected?: boolean;
}

export interface Clock {
  white: number;
  black: number;
  running: Color | null;
  server_time: number;
  first_move_deadline: number | null;
}

export interface MoveEntry {
  uci: string;
  san: string;
  /** FEN after the move, when the server provides it. */
  fen?: string;
  check?: boolean;
  /** The mover's time left after the move (ms); null or absent without a clock. */
  clock?: number | null;
}

export interface GameState {
  type?: 'state';
  game: string;
  variant: Variant;
  time: TimeControl;
  initial_fen: string;
  fen: string;
  moves: MoveEntry[];
  ply: number;
  turn: Color;
  check: boolean;
  legal_moves: string[];
  /** SAN of each legal move, in the order of legal_moves (absent from older servers). */
  legal_san?: string[];
  clock: Clock | null;
  status: 'live' | 'over';
  result: string;
  termination: string | null;
  winner: Color | null;
  players: { white: PlayerInfo; black: PlayerInfo };
  you: Color | null;
  draw_offer: Color | null;
  rematch_offer: Color | null;
  rematch_game: string | null;
  can_abort: boolean;
  /** Takebacks in this game (null or absent: none): the open offer's author, whether each seat may propose one now. */
  takeback?: { offer: Color | null; white: boolean; black: boolean } | null;
  /** The opponent left: `by` may claim the game from `available_at` (server clock). */
  claim?: { by: Color; available_at: number } | null;
  created_at: number;
  ended_at: number | null;
}

export interface Seek {
  id: string;
  variant: Variant;
  time: TimeControl;
  color: Color | 'random';
  nickname: string;
  created_at: number;
  private: boolean;
  mine: boolean;
  game: string | null;
  /** The set-up position the game starts from (null: the usual one). */
  fen?: string | null;
}

export interface GameSummary {
  id: string;
  variant: Variant;
  time: TimeControl;
  white: PlayerInfo;
  black: PlayerInfo;
  status: 'live' | 'over';
  ply: number;
  fen: string;
  result: string;
  termination: string | null;
  created_at: number;
  ended_at: number | null;
}

export interface AnalysisResult {
  fen: string;
  turn: Color;
  check: boolean;
  legal_moves: string[];
  legal_san?: string[];
  san?: string[];
  status?: string;
  result?: string;
  termination?: string | null;
}

/** A puzzle (docs/API.md, "Puzzles"): the solver moves first; `solution` alternates solver and replies. */
export interface Puzzle {
  id: string;
  variant: Variant;
  fen: string;
  solution: string[];
  themes: string[];
  rating: number;
  /** For a logged-in player: they have finished this puzzle before (an attempt will not be rated). */
  attempted?: boolean;
}

/** The solver's Glicko-2 puzzle rating in one game, as the server computes it and the browser keeps it. */
export interface PuzzlePlayer {
  rating: number;
  deviation: number;
  volatility: number;
  provisional?: boolean;
}

export interface PuzzleAttempt {
  id: string;
  result: 'partial' | 'solved' | 'failed';
  reply?: string;
  expected?: string;
  solution?: string[];
  player?: PuzzlePlayer;
  rating_diff?: number;
  /** A logged-in player's finished attempt: whether it moved the account's rating (only the first at a puzzle does). */
  rated?: boolean;
  /** With `rated`: the puzzles the account has rated in this game. */
  puzzles?: number;
}

/**
 * A player's place in a tournament, as a profile's list gives it: rank, score, results in order ("WWL";
 * a Swiss also "B" the bye, "+"/"-" forfeits, "." absent).
 */
export interface TournamentPlayer {
  rank: number;
  score: number;
  results: string;
}

/**
 * A tournament as the list gives it (docs/API.md, "Tournaments"): the view without standings and games;
 * in a player's list (`?player=`), with that player's place.
 */
export type TournamentSummary = (Omit<WireTournament, 'standings' | 'games'> | Omit<WireSwissTournament, 'standings' | 'games' | 'bye'>) & {
  player?: TournamentPlayer;
};

/** A tournament of a player's list (GET /api/tournaments?player=): always with the player's place. */
export type PlayerTournament = TournamentSummary & { player: TournamentPlayer };

/** This browser's seat in a tournament (by its token): none, or the player's place. */
export type TournamentMe =
  | { joined: false }
  | {
      joined: true;
      name: string;
      paused: boolean;
      rank: number;
      /** An arena: the game being played. */
      game?: string | null;
      /** A Swiss: the points, and the player's entry of the current round (null: none). */
      points?: number;
      pairing?: (WireSwissRound & { round: number }) | null;
    };

/** What POST /api/tournaments takes: an arena (its length) or a Swiss (its rounds), its clock, its start in minutes. */
export interface TournamentCreate {
  kind: 'arena' | 'swiss';
  variant: Variant;
  time: { kind: 'realtime'; minutes: number; increment: number };
  minutes?: number;
  rounds?: number;
  round_interval?: number;
  starts_in: number;
  rated: boolean;
  name?: string;
}

export interface Lobby {
  seeks: Seek[];
  games: GameSummary[];
}

/** The lobby as the socket keeps it: a snapshot (`lobby`), then `lobby_delta` changes. */
interface LobbyState {
  seq: number;
  seeks: WireSeek[];
  games: WireGameSummary[];
}

type LobbyChange = WireLobbyChange;

const newestFirst = (a: { created_at: number }, b: { created_at: number }) => b.created_at - a.created_at;

/** Applies one delta; false when it does not follow `state` (then ask for a new snapshot). */
export function applyLobbyDelta(state: LobbyState, seq: number, changes: LobbyChange[]): boolean {
  if (seq !== state.seq + 1) return false;
  for (const c of changes) {
    if (c.op === 'seek_added') state.seeks = [c.seek, ...state.seeks.filter(s => s.id !== c.seek.id)].sort(newestFirst);
    else if (c.op === 'seek_removed') state.seeks = state.seeks.filter(s => s.id !== c.id);
    else if (c.op === 'game_started')
      state.games = [c.game, ...state.games.filter(g => g.id !== c.game.id)].sort(newestFirst);
    else if (c.op === 'game_ended') state.games = state.games.filter(g => g.id !== c.id);
    else if (c.op === 'game_moved')
      state.games = state.games.map(g => (g.id === c.id ? { ...g, ply: c.ply, fen: c.fen } : g));
  }
  state.seq = seq;
  return true;
}

/**
 * An error from the server. `reason` (a stable snake_case key), `field` and
 * `params` come from servers that send them; the client translates by reason,
 * then by code (errors.ts).
 */
export interface ServerError {
  code?: string;
  message?: string;
  reason?: string;
  field?: string;
  params?: Record<string, unknown>;
}

export class ApiError extends Error implements ServerError {
  readonly reason?: string;
  readonly field?: string;
  readonly params?: Record<string, unknown>;
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    detail: ServerError = {},
  ) {
    super(message);
    this.reason = typeof detail.reason === 'string' ? detail.reason : undefined;
    this.field = typeof detail.field === 'string' ? detail.field : undefined;
    this.params = detail.params && typeof detail.params === 'object' ? detail.params : undefined;
  }
}

// ---------------------------------------------------------------------------
// token and nickname (per browser)

const TOKEN_KEY = 'echecs.token';
const NICK_KEY = 'echecs.nickname';

function randomToken(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, b => alphabet[b & 63]).join('');
}

export function token(): string {
  let tok: string | null = null;
  try {
    tok = localStorage.getItem(TOKEN_KEY);
  } catch {
    /* ignore */
  }
  if (!tok || !/^[A-Za-z0-9_-]{16,64}$/.test(tok)) {
    tok = randomToken();
    try {
      localStorage.setItem(TOKEN_KEY, tok);
    } catch {
      /* ignore */
    }
  }
  return tok;
}

export function nickname(): string {
  try {
    return localStorage.getItem(NICK_KEY) ?? '';
  } catch {
    return '';
  }
}

export function setNickname(n: string): void {
  try {
    localStorage.setItem(NICK_KEY, n.trim());
  } catch {
    /* ignore */
  }
}

// ---------------------------------------------------------------------------
// HTTP

export async function http<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { 'X-Echecs-Token': token() };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    const raw = (data as { error?: unknown } | null)?.error;
    const err: ServerError = raw && typeof raw === 'object' ? (raw as ServerError) : {};
    const code = typeof err.code === 'string' ? err.code : 'http';
    const message = typeof err.message === 'string' ? err.message : `${res.status} ${res.statusText}`;
    throw new ApiError(res.status, code, message, err);
  }
  return data as T;
}

export const api = {
  lobby: () => http<Lobby>('GET', '/api/lobby'),
  createSeek: (b: { variant: Variant; time: TimeControl; color: string; nickname?: string; private: boolean }) =>
    http<{ seek: Seek; url: string }>('POST', '/api/seeks', b),
  seek: (id: string) => http<{ seek: Seek }>('GET', `/api/seeks/${encodeURIComponent(id)}`),
  cancelSeek: (id: string) => http<{ ok: boolean }>('DELETE', `/api/seeks/${encodeURIComponent(id)}`),
  acceptSeek: (id: string, nick?: string) =>
    http<{ game: string; color: Color }>('POST', `/api/seeks/${encodeURIComponent(id)}/accept`, nick ? { nickname: nick } : {}),
  computer: (b: { variant: Variant; level: number; color: string; time?: TimeControl; nickname?: string }) =>
    http<{ game: string; color: Color }>('POST', '/api/computer', b),
  game: (id: string) => http<GameState>('GET', `/api/games/${encodeURIComponent(id)}`),
  games: (status: 'finished' | 'live', limit = 20) =>
    http<{ games: GameSummary[] }>('GET', `/api/games?status=${status}&limit=${limit}`),
  analysis: (b: { variant: Variant; fen: string; moves?: string[] }) =>
    http<AnalysisResult>('POST', '/api/analysis', b),
  puzzleNext: (variant: Variant, rating?: number) =>
    http<Puzzle>('GET', `/api/puzzles/next?variant=${variant}${rating === undefined ? '' : `&rating=${Math.max(0, Math.min(4000, rating))}`}`),
  puzzleAttempt: (id: string, b: { moves: string[]; player?: Partial<PuzzlePlayer> }) =>
    http<PuzzleAttempt>('POST', `/api/puzzles/${encodeURIComponent(id)}/attempt`, b),
  tournaments: () => http<{ tournaments: TournamentSummary[] }>('GET', '/api/tournaments'),
  /** The tournaments a player joined (any case): to come and running, then the 50 latest finished. */
  tournamentsOf: (name: string) =>
    http<{ tournaments: PlayerTournament[] }>('GET', `/api/tournaments?player=${encodeURIComponent(name)}`),
  tournament: (id: string) =>
    // `archived`: an old finished tournament, read from the database; nothing more will change
    http<{ tournament: WireTournament; me: TournamentMe; now: number; archived?: boolean }>('GET', `/api/tournaments/${encodeURIComponent(id)}`),
  createTournament: (b: TournamentCreate) => http<{ tournament: TournamentSummary }>('POST', '/api/tournaments', b),
  /** Joins, or comes back from a pause (the seat moves to this browser). */
  joinTournament: (id: string) =>
    http<{ tournament: TournamentSummary; me: TournamentMe }>('POST', `/api/tournaments/${encodeURIComponent(id)}/join`, {}),
  /** Withdraws: a pause once the arena runs (the points kept). */
  withdrawTournament: (id: string) =>
    http<{ tournament: TournamentSummary; me: TournamentMe }>('POST', `/api/tournaments/${encodeURIComponent(id)}/withdraw`, {}),
  evaluate: (b: { variant: Variant; fen: string; moves?: string[]; movetime_ms: number }) =>
    http<{ score_cp: number | null; mate: number | null; best_move: string | null; pv?: string[]; depth?: number }>(
      'POST',
      '/api/analysis/eval',
      b,
    ),
};

// ---------------------------------------------------------------------------
// WebSocket

/** The lobby as the pages get it: kept by the socket from `lobby` and `lobby_delta`, with `mine`. */
export interface LobbyView {
  type: 'lobby';
  seeks: Seek[];
  games: GameSummary[];
}

/** What a handler of each message type receives (src/protocol.ts; `lobby`: the socket's view). */
export type SocketEvents = { [K in ServerMessageType]: K extends 'lobby' ? LobbyView : MessageOf<K> };
type AnyEvent = SocketEvents[ServerMessageType];
type Handler = (msg: AnyEvent) => void;

export class Socket {
  private ws: WebSocket | null = null;
  private handlers = new Map<string, Set<Handler>>();
  private watched = new Set<string>();
  private lobby = false;
  /** The tournament whose standings this socket watches (one at a time), or null. */
  private tournament: string | null = null;
  private lobbyState: LobbyState | null = null;
  private mySeeks = new Set<string>();
  private queue: string[] = [];
  private retry = 0;
  private timer: number | undefined;
  private pingTimer: number | undefined;
  /** The server's clock, from pongs. */
  private clock = new ClockSync();
  connected = false;
  private statusListeners = new Set<(up: boolean) => void>();

  constructor(private url: string) {}

  start(): void {
    if (this.ws) return;
    this.open();
  }

  private open(): void {
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      this.connected = true;
      this.clock.reset();
      ws.send(JSON.stringify({ type: 'hello', token: token() }));
      for (const g of this.watched) ws.send(JSON.stringify({ type: 'join', game: g }));
      if (this.lobby) ws.send(JSON.stringify({ type: 'lobby_subscribe' }));
      if (this.tournament) ws.send(JSON.stringify({ type: 'tournament_watch', tournament: this.tournament }));
      for (const q of this.queue.splice(0)) ws.send(q);
      this.ping();
      this.statusListeners.forEach(f => f(true));
    };
    ws.onmessage = ev => {
      // The server's messages are those of docs/protocol/server-messages.schema.json
      // (its tests check them against it): typed as they come.
      let msg: ServerMessage;
      try {
        msg = JSON.parse(String(ev.data)) as ServerMessage;
      } catch {
        return;
      }
      if (msg.type === 'pong' && typeof msg.server_time === 'number' && typeof msg.t === 'number') {
        this.clock.sample(msg.t, msg.server_time, Date.now());
      }
      let event: AnyEvent;
      if (msg.type === 'lobby' || msg.type === 'lobby_delta' || msg.type === 'my_seeks') {
        const view = this.onLobby(msg);
        if (!view) return;
        event = view;
      } else event = msg;
      this.handlers.get(event.type)?.forEach(h => h(event));
    };
    ws.onclose = () => {
      this.lobbyState = null;
      const was = this.connected;
      this.connected = false;
      this.ws = null;
      window.clearInterval(this.pingTimer);
      if (was) this.statusListeners.forEach(f => f(false));
      const delay = Math.min(5000, 250 * 2 ** this.retry++);
      this.timer = window.setTimeout(() => this.open(), delay);
    };
    ws.onerror = () => ws.close();
  }

  /** Keeps the lobby from its snapshot and deltas; the `lobby` message for the pages, with `mine`. */
  private onLobby(msg: MessageOf<'lobby' | 'lobby_delta' | 'my_seeks'>): LobbyView | null {
    if (msg.type === 'my_seeks') this.mySeeks = new Set(msg.seeks ?? []);
    else if (msg.type === 'lobby') this.lobbyState = { seq: msg.seq, seeks: msg.seeks ?? [], games: msg.games ?? [] };
    else if (!this.lobbyState) return null;
    else if (!applyLobbyDelta(this.lobbyState, msg.seq, msg.changes)) {
      this.lobbyState = null; // a delta was missed: start again from a snapshot
      if (this.lobby) this.send({ type: 'lobby_subscribe' });
      return null;
    }
    if (!this.lobbyState) return null;
    const seeks = this.lobbyState.seeks.map(s => ({ ...s, mine: this.mySeeks.has(s.id) }));
    return { type: 'lobby', seeks, games: this.lobbyState.games };
  }

  private ping(): void {
    window.clearInterval(this.pingTimer);
    const once = () => this.send({ type: 'ping', t: Date.now() });
    once();
    this.pingTimer = window.setInterval(once, 20000);
  }

  /** Server's clock now, as well as the client knows it. */
  serverNow(): number {
    return this.clock.now(Date.now());
  }

  /** The earliest the server's clock can read now: a deadline before it has passed there too. */
  serverNowEarliest(): number {
    return this.clock.earliest(Date.now());
  }

  onStatus(f: (up: boolean) => void): () => void {
    this.statusListeners.add(f);
    return () => this.statusListeners.delete(f);
  }

  on<K extends ServerMessageType>(type: K, h: (msg: SocketEvents[K]) => void): () => void {
    let set = this.handlers.get(type);
    if (!set) this.handlers.set(type, (set = new Set()));
    // the dispatch calls a handler with the messages of its type only
    const f = h as Handler;
    set.add(f);
    return () => set!.delete(f);
  }

  send(msg: Record<string, unknown>): void {
    const s = JSON.stringify(msg);
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(s);
    else if (msg.type !== 'ping') this.queue.push(s);
  }

  join(game: string): void {
    this.watched.add(game);
    if (this.connected) this.send({ type: 'join', game });
  }

  leave(game: string): void {
    this.watched.delete(game);
    if (this.connected) this.send({ type: 'leave', game });
  }

  subscribeLobby(on: boolean): void {
    this.lobby = on;
    if (!on) this.lobbyState = null;
    if (this.connected) this.send({ type: on ? 'lobby_subscribe' : 'lobby_unsubscribe' });
  }

  /** Watches a tournament's standings (`tournament` messages), null to stop; kept across reconnections. */
  watchTournament(id: string | null): void {
    if (id === this.tournament) return;
    this.tournament = id;
    if (this.connected) this.send(id ? { type: 'tournament_watch', tournament: id } : { type: 'tournament_unwatch' });
  }

  /** For tests and debugging: drop the connection (it comes back by itself). */
  drop(): void {
    this.ws?.close();
  }

  stop(): void {
    window.clearTimeout(this.timer);
    this.ws?.close();
  }
}

let socket: Socket | null = null;

export function ws(): Socket {
  if (!socket) {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    socket = new Socket(`${proto}//${location.host}/ws`);
    socket.start();
  }
  return socket;
}
