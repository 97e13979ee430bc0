// Pure formatting helpers: clocks, time controls, results.

import type { Color } from './fen.js';
import type { Clock, PlayerInfo, TimeControl } from './api.js';
import { Key, t } from './i18n.js';

/** Remaining time of a side, the running side's clock counted down since receipt. */
export function remaining(clock: Clock, color: Color, receivedAt: number, now: number): number {
  const base = clock[color];
  if (clock.running !== color) return base;
  return Math.max(0, base - (now - receivedAt));
}

/** 5:00, 0:42, 0:09.4 (tenths under ten seconds), 1:02:03 over an hour. */
export function formatClock(ms: number): string {
  const clamped = Math.max(0, ms);
  if (clamped < 10000) {
    const tenths = Math.floor(clamped / 100);
    return `0:0${Math.floor(tenths / 10)}.${tenths % 10}`;
  }
  const total = Math.floor(clamped / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, '0');
  if (h > 0) return `${h}:${String(m).padStart(2, '0')}:${ss}`;
  return `${m}:${ss}`;
}

/** Correspondence clocks: days and hours. */
export function formatDays(ms: number): string {
  const hours = Math.floor(Math.max(0, ms) / 3600000);
  const d = Math.floor(hours / 24);
  const h = hours % 24;
  if (d > 0) return t('time.daysHours', { d, h });
  const m = Math.floor((Math.max(0, ms) % 3600000) / 60000);
  return t('time.hoursMinutes', { h, m: String(m).padStart(2, '0') });
}

export function formatTime(tc: TimeControl): string {
  if (tc.kind === 'realtime') {
    const min = tc.minutes === 0.25 ? '¼' : tc.minutes === 0.5 ? '½' : tc.minutes === 0.75 ? '¾' : String(tc.minutes);
    return `${min}+${tc.increment}`;
  }
  if (tc.kind === 'correspondence') return t('lobby.correspondenceShort', { days: tc.days });
  return '∞';
}

const REASONS: Record<string, Key> = {
  checkmate: 'reason.checkmate',
  stalemate: 'reason.stalemate',
  'avalanche loss': 'reason.avalanche',
  repetition: 'reason.repetition',
  'fifty moves': 'reason.fiftyMoves',
  'insufficient material': 'reason.insufficient',
  'time forfeit': 'reason.timeout',
  resignation: 'reason.resignation',
  agreement: 'reason.agreement',
  aborted: 'reason.aborted',
  abandonment: 'reason.abandonment',
};

export function resultTitle(result: string, termination: string | null): string {
  if (termination === 'aborted') return t('result.aborted');
  if (result === '1-0') return t('result.whiteWins');
  if (result === '0-1') return t('result.blackWins');
  if (result === '1/2-1/2') return t('result.draw');
  return '';
}

export function reasonText(result: string, termination: string | null): string {
  if (!termination || termination === 'aborted') return '';
  if (termination === 'time forfeit' && result === '1/2-1/2') return t('reason.timeoutInsufficient');
  const key = REASONS[termination];
  return key ? t(key) : t('reason.other', { reason: termination });
}

/** A player's name as shown: the computer and its level, or the nickname ("Anonymous" translated). */
export function playerName(p: PlayerInfo): string {
  if (p.computer) return t('lobby.computerName', { level: p.level ?? '?' });
  if (!p.name || p.name === 'Anonymous') return t('lobby.anonymous');
  return p.name;
}
