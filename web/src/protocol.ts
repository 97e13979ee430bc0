// The messages the server sends over the WebSocket (docs/API.md, "Server →
// client"), one interface each and their union on `type`. Written from
// docs/protocol/server-messages.schema.json, which the server's structs are
// tested against too; test/protocol.test.ts fails when this file and the
// schema differ (a message, a field or whether it is optional).
// `Wire*` are the schema's nested objects.

import type { Color, Variant } from './fen.js';
import type { Review } from './review-view.js';

export type WireTime =
  | { kind: 'realtime'; minutes: number; increment: number }
  | { kind: 'correspondence'; days: number }
  | { kind: 'unlimited' };

export type WireRatingDiff = { white: number | null; black: number | null } | null;

export interface WireSeat {
  name: string;
  computer: boolean;
  level: number | null;
  account: boolean;
  rating: number | null;
  provisional: boolean;
}

export interface WirePlayer extends WireSeat {
  connected: boolean;
  /** A tournament player who halved their own clock. */
  berserk: boolean;
}

export interface WireSeek {
  id: string;
  variant: Variant;
  time: WireTime;
  color: Color | 'random';
  nickname: string;
  created_at: number;
  private: boolean;
  game: string | null;
  rated: boolean;
  speed: string | null;
  rating: number | null;
  provisional: boolean;
  rating_range: { min: number | null; max: number | null } | null;
  fen: string | null;
}

export interface WireGameSummary {
  id: string;
  variant: Variant;
  time: WireTime;
  white: WireSeat;
  black: WireSeat;
  status: 'live' | 'over';
  ply: number;
  fen: string;
  result: string;
  termination: string | null;
  created_at: number;
  ended_at: number | null;
  rated: boolean;
  speed: string | null;
  rating_diff: WireRatingDiff;
}

export type WireLobbyChange =
  | { op: 'seek_added'; seek: WireSeek }
  | { op: 'seek_removed'; id: string }
  | { op: 'game_started'; game: WireGameSummary }
  | { op: 'game_moved'; id: string; ply: number; fen: string }
  | { op: 'game_ended'; id: string };

export type WireChatRoom = 'players' | 'spectators' | 'lobby';

export interface WireChatLine {
  id: number;
  author: string;
  account: boolean;
  seat: Color | '';
  text: string;
  at: number;
}

export interface WireAnalysisLine {
  multipv: number;
  cp: number | null;
  mate: number | null;
  wdl: number[];
  depth: number;
  moves: string[];
  san: string[];
}

export interface WireYourTurnGame {
  game: string;
  variant: string;
  time_kind: 'realtime' | 'correspondence' | 'unlimited';
  color: Color;
  opponent: string;
  ply: number;
  fen: string;
  since: number;
  deadline: number | null;
  remaining_ms?: number;
}

export interface WireMove {
  uci: string;
  san: string;
  fen: string;
  check: boolean;
  clock: number | null;
}

export type WireClock = {
  white: number;
  black: number;
  running: Color | null;
  server_time: number;
  first_move_deadline: number | null;
} | null;

export type WireClaim = { by: Color; available_at: number } | null;
/** Takebacks in this game (null: none): the open offer's author, whether each seat may propose one now. */
export type WireTakeback = { offer: Color | null; white: boolean; black: boolean } | null;

/** The client message's `id`, echoed. */
export type EchoedId = number | string;

export interface StateMessage {
  type: 'state';
  game: string;
  variant: Variant;
  time: WireTime;
  initial_fen: string;
  fen: string;
  moves: WireMove[];
  ply: number;
  turn: Color;
  check: boolean;
  legal_moves: string[];
  legal_san: string[];
  clock: WireClock;
  status: 'live' | 'over';
  result: '1-0' | '0-1' | '1/2-1/2' | '*';
  termination: string | null;
  winner: Color | null;
  players: { white: WirePlayer; black: WirePlayer };
  you: Color | null;
  draw_offer: Color | null;
  rematch_offer: Color | null;
  rematch_game: string | null;
  can_abort: boolean;
  takeback: WireTakeback;
  claim: WireClaim;
  created_at: number;
  ended_at: number | null;
  /** The tournament that paired this game. */
  tournament: string | null;
  rated: boolean;
  speed: string | null;
  rating_diff: WireRatingDiff;
}

export interface LobbyMessage {
  type: 'lobby';
  seq: number;
  seeks: WireSeek[];
  games: WireGameSummary[];
}

export interface LobbyDeltaMessage {
  type: 'lobby_delta';
  seq: number;
  changes: WireLobbyChange[];
}

export interface MySeeksMessage {
  type: 'my_seeks';
  seeks: string[];
}

export interface SeekAcceptedMessage {
  type: 'seek_accepted';
  seek: string;
  game: string;
  color: Color;
}

export interface PoolWaitingMessage {
  type: 'pool_waiting';
  pool: string;
  rated: boolean;
  rating: number | null;
  range: number;
  id?: EchoedId;
}

export interface PoolLeftMessage {
  type: 'pool_left';
  pool: string | null;
}

export interface PoolPairedMessage {
  type: 'pool_paired';
  pool: string;
  game: string;
  color: Color;
}

/** A player's line in a tournament's standings. */
export interface WireTournamentStanding {
  rank: number;
  name: string;
  rating: number;
  provisional: boolean;
  score: number;
  points: number[];
  results: string;
  fire: boolean;
  paused: boolean;
  game: string | null;
}

export interface WireTournamentGame {
  id: string;
  white: string;
  black: string;
}

/** A tournament as GET /api/tournaments/<id> and the `tournament` message give it. */
export interface WireTournament {
  id: string;
  kind: 'arena';
  name: string;
  daily: boolean;
  variant: string;
  time: WireTime;
  rated: boolean;
  status: 'created' | 'started' | 'finished';
  starts_at: number;
  ends_at: number;
  players: number;
  standings: WireTournamentStanding[];
  games: WireTournamentGame[];
}

/** One round of a Swiss player: a game (played, or live), the bye, a forfeit, an absence. */
export interface WireSwissRound {
  kind: 'played' | 'live' | 'bye' | 'forfeit_win' | 'forfeit_loss' | 'absent';
  opponent?: string;
  color?: Color;
  /** 1, 0.5 or 0; none while the game is live. */
  points?: number;
  game?: string;
}

export interface WireSwissStanding {
  rank: number;
  name: string;
  rating: number;
  provisional: boolean;
  points: number;
  buchholz: number;
  buchholz_cut1: number;
  sonneborn_berger: number;
  withdrawn: boolean;
  rounds: WireSwissRound[];
}

export interface WireSwissGame {
  id: string;
  board: number;
  white: string;
  black: string;
}

/** A Swiss tournament as GET /api/tournaments/<id> and the `tournament` message give it. */
export interface WireSwissTournament {
  id: string;
  kind: 'swiss';
  name: string;
  daily: boolean;
  variant: string;
  time: WireTime;
  rated: boolean;
  status: 'created' | 'started' | 'finished';
  starts_at: number;
  ends_at: number | null;
  rounds: number;
  /** The round paired last (0 before the start). */
  round: number;
  /** Seconds from the end of a round to the next pairing. */
  round_interval: number;
  next_round_at: number | null;
  players: number;
  standings: WireSwissStanding[];
  games: WireSwissGame[];
  bye: string | null;
}

export interface TournamentMessage {
  type: 'tournament';
  tournament: WireTournament | WireSwissTournament;
}

export interface TournamentPairedMessage {
  type: 'tournament_paired';
  tournament: string;
  game: string;
  color: Color;
  /** A Swiss round (an arena sends none). */
  round?: number;
}

export interface ReviewMessage {
  type: 'review';
  game: string;
  status: 'queued' | 'running' | 'done' | 'failed' | 'interrupted';
  done?: number;
  total?: number;
  /** The object of GET /api/games/<id>/review (the schema does not detail it). */
  review?: Review;
  error?: string;
}

export interface AnalysisMessage {
  type: 'analysis';
  depth: number;
  nodes: number;
  nps: number;
  time_ms: number;
  final: boolean;
  lines: WireAnalysisLine[];
  id?: EchoedId;
}

export interface PongMessage {
  type: 'pong';
  /** The ping's `t`, any JSON value. */
  t: unknown;
  server_time: number;
}

export interface ChatHistoryMessage {
  type: 'chat_history';
  room: WireChatRoom;
  game?: string;
  enabled: boolean;
  max_chars: number;
  lines: WireChatLine[];
}

export interface ChatMessage {
  type: 'chat';
  room: WireChatRoom;
  game?: string;
  line: WireChatLine;
}

export interface ReportedMessage {
  type: 'reported';
  line: number;
  game?: string;
  id?: EchoedId;
}

export interface YourTurnMessage {
  type: 'your_turn';
  games: WireYourTurnGame[];
}

export interface ErrorMessage {
  type: 'error';
  code: string;
  message: string;
  reason: string;
  field: string | null;
  params: Record<string, unknown>;
  game?: string;
  id?: EchoedId;
}

export type ServerMessage =
  | StateMessage
  | LobbyMessage
  | LobbyDeltaMessage
  | MySeeksMessage
  | SeekAcceptedMessage
  | PoolWaitingMessage
  | PoolLeftMessage
  | PoolPairedMessage
  | TournamentMessage
  | TournamentPairedMessage
  | ReviewMessage
  | AnalysisMessage
  | PongMessage
  | ChatHistoryMessage
  | ChatMessage
  | ReportedMessage
  | YourTurnMessage
  | ErrorMessage;

export type ServerMessageType = ServerMessage['type'];

/** The message of one `type`. */
export type MessageOf<T extends ServerMessageType> = Extract<ServerMessage, { type: T }>;
