// The chat panel of a game (the server puts a player in the players' room and
// anybody else in the spectators' room) and of the lobby. Text from the
// server is only ever set as text nodes (el() and textContent), never parsed
// as HTML. Canned phrases are one tap away; authors can be muted (remembered
// in this browser) and lines reported. The panel collapses (closed at first on
// a phone) and disappears when the server has chat off or the player turned
// it off in the settings.

import { type SocketEvents, ws } from './api.js';
import { clear, el } from './dom.js';
import { errorText } from './errors.js';
import { Key, onLangChange, t } from './i18n.js';
import { onSettings, settings } from './settings.js';

export interface ChatLine {
  id: number;
  author: string;
  /** The author is an account (its name links to its profile); guests are "Guest-…". */
  account: boolean;
  seat: string;
  text: string;
  at: number;
}

type ChatEvent = 'chat_history' | 'chat' | 'error' | 'reported';
/** What the panel needs of the socket (the tests give a fake). */
export interface ChatSocket {
  on<K extends ChatEvent>(type: K, h: (m: SocketEvents[K]) => void): () => void;
  send(msg: Record<string, unknown>): void;
}

export const MAX_CHARS = 300;
const MAX_LINES = 100;
const MUTED_KEY = 'echecs.chat.muted';
const NARROW = '(max-width: 759px)';

export const PHRASES: Key[] = ['chat.phrase.hello', 'chat.phrase.goodLuck', 'chat.phrase.goodGame', 'chat.phrase.thanks'];

/** Code points, as the server counts them. */
export function codePoints(s: string): number {
  return Array.from(s).length;
}

/** The text to send, or the reason the server would refuse it (checked there too). */
export function prepare(raw: string, max = MAX_CHARS): { text: string } | { reason: string } {
  const text = raw.trim();
  if (!text) return { reason: 'text_empty' };
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/.test(text)) return { reason: 'text_control_character' };
  if (codePoints(text) > max) return { reason: 'text_too_long' };
  return { text };
}

/** The chat errors (shown in the panel, not by the page). */
export function isChatError(m: object): boolean {
  const reason = 'reason' in m && typeof m.reason === 'string' ? m.reason : '';
  return /^(chat_|text_|report_)/.test(reason);
}

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/** The muted authors: strings only, at most 200 (a hand-edited store never breaks the page). */
export function sanitizeMuted(raw: unknown): string[] {
  return Array.isArray(raw) ? raw.filter((x): x is string => typeof x === 'string' && x.length <= 64).slice(-200) : [];
}

export function mutedAuthors(): string[] {
  try {
    return sanitizeMuted(JSON.parse(storage()?.getItem(MUTED_KEY) ?? '[]'));
  } catch {
    return [];
  }
}

export function setMuted(author: string, muted: boolean): void {
  const list = mutedAuthors().filter(a => a !== author);
  if (muted) list.push(author);
  try {
    storage()?.setItem(MUTED_KEY, JSON.stringify(sanitizeMuted(list)));
  } catch {
    /* ignore: the mute lasts for this page */
  }
}

/**
 * A line as a list item: author, text and its two actions. Text nodes only.
 * `seatName`: the name the board shows for the line's seat, shown for a guest
 * player's line instead of "Guest-…" (the same person, named as on the board;
 * still plain text, never an account's link; the mute key stays the author).
 */
export function renderLine(line: ChatLine, onMute: () => void, onReport: () => void, seatName?: string): HTMLElement {
  const mute = el('button', { type: 'button', class: 'chat-act', 'data-action': 'mute', title: t('chat.mute', { name: line.author }) }, t('chat.muteShort'));
  mute.addEventListener('click', onMute);
  const report = el('button', { type: 'button', class: 'chat-act', 'data-action': 'report', title: t('chat.report') }, t('chat.reportShort'));
  report.addEventListener('click', onReport);
  return el(
    'li',
    { class: `chat-line${line.seat ? ` seat-${line.seat === 'white' ? 'white' : 'black'}` : ''}`, 'data-line': String(line.id), 'data-author': line.author },
    line.account
      ? el('a', { class: 'chat-author account', href: `/@/${encodeURIComponent(line.author)}`, 'data-link': '', title: t('chat.accountTitle', { name: line.author }) }, line.author)
      : seatName && line.seat
        ? el('span', { class: 'chat-author guest', title: line.author }, seatName)
        : el('span', { class: 'chat-author guest' }, line.author),
    el('span', { class: 'chat-text' }, line.text),
    el('span', { class: 'chat-acts' }, mute, report),
  );
}

/** A line as the server sent it, checked; null when malformed. */
export function parseLine(v: unknown): ChatLine | null {
  const l = v as Partial<ChatLine> | null;
  if (!l || typeof l.id !== 'number' || typeof l.author !== 'string' || typeof l.text !== 'string') return null;
  return { id: l.id, author: l.author, account: l.account === true, seat: typeof l.seat === 'string' ? l.seat : '', text: l.text, at: Number(l.at) || 0 };
}

export class ChatPanel {
  readonly element: HTMLElement;
  private lines: ChatLine[] = [];
  private room = '';
  private enabled = false; // until the server's history says so
  private open: boolean;
  private unread = 0;
  private reported = new Set<number>();
  private off: (() => void)[] = [];
  private list: HTMLElement;
  private title: HTMLElement;
  private badge: HTMLElement;
  private body: HTMLElement;
  private input: HTMLInputElement;
  private msg: HTMLElement;
  private phrases: HTMLElement;
  private mutedBox: HTMLElement;
  private toggle: HTMLButtonElement;
  private sendBtn: HTMLButtonElement;
  private seatNames: Partial<Record<string, string>> = {};

  /** `game`: the game's chat; undefined: the lobby's. */
  constructor(
    private game: string | undefined,
    private sock: ChatSocket = ws(),
  ) {
    const narrow = typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia(NARROW).matches;
    this.open = !narrow;
    this.title = el('span', { class: 'chat-title' });
    this.badge = el('span', { class: 'chat-unread', hidden: '' });
    this.toggle = el('button', { type: 'button', class: 'chat-toggle', 'data-action': 'chat-toggle' }, this.title, this.badge);
    this.toggle.addEventListener('click', () => this.setOpen(!this.open));
    this.list = el('ol', { class: 'chat-lines', 'aria-live': 'polite' });
    this.phrases = el('div', { class: 'chat-phrases' });
    this.input = el('input', { class: 'chat-input', type: 'text', maxlength: String(MAX_CHARS * 2), autocomplete: 'off', enterkeyhint: 'send' });
    this.input.addEventListener('keydown', e => {
      if (e.key === 'Enter') this.send(this.input.value);
      e.stopPropagation(); // the game page's keys (arrows) stay out of the field
    });
    const sendBtn = el('button', { type: 'button', class: 'btn small chat-send', 'data-action': 'chat-send' });
    sendBtn.addEventListener('click', () => this.send(this.input.value));
    this.msg = el('div', { class: 'chat-msg', 'aria-live': 'polite' });
    this.mutedBox = el('div', { class: 'chat-muted' });
    this.body = el('div', { class: 'chat-body' }, this.list, this.phrases, el('div', { class: 'chat-form' }, this.input, sendBtn), this.msg, this.mutedBox);
    this.element = el('section', { class: 'chat-panel', 'data-chat': game ? 'game' : 'lobby', hidden: '' }, this.toggle, this.body);
    this.sendBtn = sendBtn;
    this.off.push(
      sock.on('chat_history', m => {
        if (!this.mine(m)) return;
        this.room = m.room;
        this.enabled = m.enabled === true;
        this.lines = (m.lines ?? []).map(parseLine).filter((l): l is ChatLine => !!l);
        this.render();
      }),
      sock.on('chat', m => {
        if (!this.mine(m)) return;
        const line = parseLine(m.line);
        if (!line) return;
        this.lines.push(line);
        if (this.lines.length > MAX_LINES) this.lines.shift();
        if (!this.open && !mutedAuthors().includes(line.author)) this.unread++;
        this.render();
      }),
      sock.on('error', m => {
        if ((this.game ? m.game === this.game : m.game === undefined) && isChatError(m)) this.show(errorText(m), true);
      }),
      sock.on('reported', m => {
        if (!this.mine(m)) return;
        this.show(t('chat.reported'), false);
      }),
      onSettings(() => this.render()),
      onLangChange(() => this.render()),
    );
    this.render();
  }

  /** The names the board shows for the two seats (a game's chat): a guest player's lines carry them. */
  setSeatNames(names: { white: string; black: string }): void {
    if (this.seatNames.white === names.white && this.seatNames.black === names.black) return;
    this.seatNames = { ...names };
    this.render();
  }

  private mine(m: { game?: string; room?: string }): boolean {
    return this.game ? m.game === this.game : m.room === 'lobby';
  }

  destroy(): void {
    this.off.forEach(f => f());
    this.element.remove();
  }

  private target(): Record<string, unknown> {
    return this.game ? { game: this.game } : { room: 'lobby' };
  }

  send(raw: string): void {
    const p = prepare(raw);
    if ('reason' in p) {
      this.show(errorText({ reason: p.reason, params: { max: MAX_CHARS } }), true);
      return;
    }
    this.sock.send({ type: 'chat', ...this.target(), text: p.text });
    if (raw === this.input.value) this.input.value = '';
    this.show('', false);
  }

  private report(line: ChatLine): void {
    if (this.reported.has(line.id)) return;
    this.reported.add(line.id);
    this.sock.send({ type: 'report', ...this.target(), line: line.id });
  }

  private show(text: string, error: boolean): void {
    this.msg.textContent = text;
    this.msg.classList.toggle('error', error);
  }

  private setOpen(open: boolean): void {
    this.open = open;
    if (open) this.unread = 0;
    this.render();
    if (open) this.list.scrollTop = this.list.scrollHeight;
  }

  render(): void {
    const on = this.enabled && settings().chat;
    this.element.hidden = !on;
    if (!on) return;
    this.element.dataset.room = this.room;
    this.element.classList.toggle('collapsed', !this.open);
    this.toggle.setAttribute('aria-expanded', String(this.open));
    this.body.hidden = !this.open;
    this.title.textContent = t(this.room === 'spectators' ? 'chat.spectators' : this.room === 'lobby' ? 'chat.lobby' : 'chat.players');
    this.badge.hidden = this.open || this.unread === 0;
    this.badge.textContent = String(this.unread);
    this.input.placeholder = t('chat.placeholder');
    this.input.setAttribute('aria-label', t('chat.placeholder'));
    this.sendBtn.textContent = t('chat.send');
    clear(this.phrases);
    for (const k of PHRASES) {
      const b = el('button', { type: 'button', class: 'btn small chat-phrase', 'data-phrase': k.slice('chat.phrase.'.length) }, t(k));
      b.addEventListener('click', () => this.send(t(k)));
      this.phrases.appendChild(b);
    }
    const muted = mutedAuthors();
    const atBottom = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 40;
    clear(this.list);
    for (const line of this.lines) {
      if (muted.includes(line.author)) continue;
      this.list.appendChild(
        renderLine(
          line,
          () => {
            setMuted(line.author, true);
            this.render();
          },
          () => this.report(line),
          line.seat ? this.seatNames[line.seat] : undefined,
        ),
      );
    }
    if (!this.lines.length) this.list.appendChild(el('li', { class: 'chat-empty' }, t('chat.empty')));
    if (atBottom) this.list.scrollTop = this.list.scrollHeight;
    clear(this.mutedBox);
    const here = muted.filter(a => this.lines.some(l => l.author === a));
    for (const a of here) {
      const b = el('button', { type: 'button', class: 'chat-unmute', 'data-action': 'unmute', 'data-author': a }, t('chat.unmute', { name: a }));
      b.addEventListener('click', () => {
        setMuted(a, false);
        this.render();
      });
      this.mutedBox.appendChild(b);
    }
  }
}
