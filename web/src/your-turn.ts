// The "your turn" list: the games (any time control) in which it is this
// browser's player's move, pushed by the server (`your_turn`, on hello and
// after every change of one of them). The page title carries "(n) Your move"
// while the list is not empty, and, if the player turned it on in the
// settings (the permission is asked on that click only), a browser
// notification says when a game starts waiting while the page is hidden.

import { ws } from './api.js';
import type { WireYourTurnGame } from './protocol.js';
import { t } from './i18n.js';
import { settings } from './settings.js';

/** A game of the server's `your_turn` list (src/protocol.ts). */
export type TurnGame = WireYourTurnGame;

let games: TurnGame[] = [];
let known = new Set<string>();
let started = false;
const listeners = new Set<(g: TurnGame[]) => void>();

/** The title with the marker: "(2) Your move · Échecs". */
export function markedTitle(title: string, count: number, marker: string): string {
  return count > 0 ? `(${count}) ${marker} · ${title}` : title;
}

/** A title without our marker (the page's own). */
export function unmarkedTitle(title: string): string {
  const m = /^\(\d+\) [^·]+ · (.*)$/.exec(title);
  return m ? m[1] : title;
}

export function sanitizeTurns(raw: unknown): TurnGame[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter((g): g is TurnGame => !!g && typeof g === 'object' && typeof (g as TurnGame).game === 'string');
}

export function yourTurn(): TurnGame[] {
  return games;
}

export function onYourTurn(f: (g: TurnGame[]) => void): () => void {
  listeners.add(f);
  return () => listeners.delete(f);
}

function applyTitle(): void {
  const own = unmarkedTitle(document.title);
  const next = markedTitle(own, games.length, t('turn.marker'));
  if (document.title !== next) document.title = next;
}

function notify(fresh: TurnGame[]): void {
  if (!settings().notify || typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  if (!document.hidden) return;
  for (const g of fresh.slice(0, 3)) {
    try {
      const n = new Notification(t('turn.notifyTitle'), { body: t('turn.notifyBody', { name: g.opponent }), tag: `turn-${g.game}` });
      n.onclick = () => {
        window.focus();
        location.assign(`/game/${g.game}`);
      };
    } catch {
      /* some browsers allow notifications only from a service worker */
    }
  }
}

/** Asks the browser's permission (from a click); true when notifications may be shown. */
export async function askNotifications(): Promise<boolean> {
  if (typeof Notification === 'undefined') return false;
  if (Notification.permission === 'granted') return true;
  if (Notification.permission === 'denied') return false;
  return (await Notification.requestPermission()) === 'granted';
}

export function startYourTurn(): void {
  if (started) return;
  started = true;
  ws().on('your_turn', m => {
    const next = sanitizeTurns(m.games);
    const fresh = next.filter(g => !known.has(`${g.game}:${g.ply}`));
    known = new Set(next.map(g => `${g.game}:${g.ply}`));
    games = next;
    applyTitle();
    if (fresh.length) notify(fresh);
    listeners.forEach(f => f(games));
  });
  // the pages set their own titles: the marker goes back on each time
  const title = document.querySelector('title') ?? document.head.appendChild(document.createElement('title'));
  new MutationObserver(() => applyTitle()).observe(title, { childList: true, characterData: true, subtree: true });
}
