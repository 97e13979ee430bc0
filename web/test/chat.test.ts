// The chat panel's pure parts and its line rendering: the text a server sends
// (markup included) only ever becomes text nodes. A small fake DOM records
// what the code does and refuses innerHTML outright.
import { test } from 'node:test';
import assert from 'node:assert/strict';

class FakeText {
  constructor(public data: string) {}
}
class FakeElement {
  attrs = new Map<string, string>();
  children: (FakeElement | FakeText)[] = [];
  listeners = new Map<string, () => void>();
  classList = { toggle: () => undefined, add: () => undefined, remove: () => undefined };
  dataset: Record<string, string> = {};
  hidden = false;
  constructor(public tag: string) {}
  setAttribute(k: string, v: string) {
    this.attrs.set(k, String(v));
  }
  append(...c: (FakeElement | FakeText | string)[]) {
    for (const x of c) this.children.push(typeof x === 'string' ? new FakeText(x) : x);
  }
  appendChild(c: FakeElement) {
    this.children.push(c);
    return c;
  }
  addEventListener(type: string, f: () => void) {
    this.listeners.set(type, f);
  }
  get textContent(): string {
    return this.children.map(c => (c instanceof FakeText ? c.data : c.textContent)).join('');
  }
  set textContent(v: string) {
    this.children = [new FakeText(v)];
  }
  set innerHTML(_v: string) {
    throw new Error('innerHTML used');
  }
  set outerHTML(_v: string) {
    throw new Error('outerHTML used');
  }
  insertAdjacentHTML() {
    throw new Error('insertAdjacentHTML used');
  }
  find(cls: string): FakeElement | undefined {
    if ((this.attrs.get('class') ?? '').split(' ').includes(cls)) return this;
    for (const c of this.children) if (c instanceof FakeElement) {
      const f = c.find(cls);
      if (f) return f;
    }
    return undefined;
  }
}
const store = new Map<string, string>();
Object.assign(globalThis, {
  document: { createElement: (tag: string) => new FakeElement(tag) },
  localStorage: {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
  },
});

const chat = await import('../src/chat.ts');

test('chat: a line with markup is rendered as text nodes only', () => {
  const hostile = '<img src=x onerror="alert(1)"><script>alert(2)</script>&amp;';
  let muted = 0;
  let reported = 0;
  const li = chat.renderLine(
    { id: 7, author: '<b>Ann</b>', account: false, seat: 'white', text: hostile, at: 0 },
    () => muted++,
    () => reported++,
  ) as unknown as FakeElement;
  assert.equal(li.tag, 'li');
  assert.equal(li.attrs.get('data-author'), '<b>Ann</b>');
  const text = li.find('chat-text')!;
  assert.equal(text.children.length, 1);
  assert.ok(text.children[0] instanceof FakeText);
  assert.equal((text.children[0] as FakeText).data, hostile);
  const author = li.find('chat-author')!;
  assert.ok(author.children.every(c => c instanceof FakeText));
  assert.equal(author.textContent, '<b>Ann</b>');
  // no element was made from the text: only li, spans and the two buttons
  const tags: string[] = [];
  const walk = (e: FakeElement) => {
    tags.push(e.tag);
    e.children.forEach(c => c instanceof FakeElement && walk(c));
  };
  walk(li);
  assert.deepEqual(tags.sort(), ['button', 'button', 'li', 'span', 'span', 'span']);
  li.find('chat-acts')!.children.forEach(b => (b as FakeElement).listeners.get('click')!());
  assert.deepEqual([muted, reported], [1, 1]);
});

test('chat: an account author links to its profile, a guest is plain text', () => {
  const acc = chat.renderLine({ id: 1, author: 'Ann Lee/../x', account: true, seat: '', text: 'hi', at: 0 }, () => {}, () => {}) as unknown as FakeElement;
  const a = acc.find('chat-author')!;
  assert.equal(a.tag, 'a');
  assert.ok(a.attrs.get('class')!.split(' ').includes('account'));
  assert.equal(a.attrs.get('href'), '/@/Ann%20Lee%2F..%2Fx'); // the name is one path segment
  assert.equal(a.textContent, 'Ann Lee/../x');
  const guest = chat.renderLine({ id: 2, author: 'Guest-1a2b3c', account: false, seat: 'black', text: 'hi', at: 0 }, () => {}, () => {}) as unknown as FakeElement;
  const g = guest.find('chat-author')!;
  assert.equal(g.tag, 'span');
  assert.ok(g.attrs.get('class')!.split(' ').includes('guest'));
  assert.equal(g.attrs.get('href'), undefined);
  // a guest player's line carries the name the board shows for the seat; the mute key stays the guest name
  const seated = chat.renderLine({ id: 3, author: 'Guest-1a2b3c', account: false, seat: 'white', text: 'hi', at: 0 }, () => {}, () => {}, 'Ann') as unknown as FakeElement;
  assert.equal(seated.find('chat-author')!.textContent, 'Ann');
  assert.equal(seated.find('chat-author')!.tag, 'span');
  assert.equal(seated.attrs.get('data-author'), 'Guest-1a2b3c');
  // an account's line keeps the account's name and link
  const accSeated = chat.renderLine({ id: 4, author: 'AnnLee', account: true, seat: 'white', text: 'hi', at: 0 }, () => {}, () => {}, 'Someone') as unknown as FakeElement;
  assert.equal(accSeated.find('chat-author')!.textContent, 'AnnLee');
});

test('chat: a line from the server is checked field by field', () => {
  assert.deepEqual(chat.parseLine({ id: 3, author: 'Ann', account: true, seat: 'white', text: 'x', at: 5 }), { id: 3, author: 'Ann', account: true, seat: 'white', text: 'x', at: 5 });
  // anything but true is not an account: a guest is never shown as one
  assert.equal(chat.parseLine({ id: 3, author: 'Ann', account: 'yes', text: 'x' })!.account, false);
  assert.equal(chat.parseLine({ id: 3, author: 'Ann', text: 'x' })!.account, false);
  assert.equal(chat.parseLine({ id: '3', author: 'Ann', text: 'x' }), null);
  assert.equal(chat.parseLine(null), null);
});

test('chat: the text sent is trimmed and checked as the server checks it', () => {
  assert.deepEqual(chat.prepare('  Good game  '), { text: 'Good game' });
  assert.deepEqual(chat.prepare('   '), { reason: 'text_empty' });
  assert.deepEqual(chat.prepare('a\u0007'), { reason: 'text_control_character' });
  assert.deepEqual(chat.prepare('abc\u202edef'), { reason: 'text_control_character' });
  assert.deepEqual(chat.prepare('é'.repeat(300)), { text: 'é'.repeat(300) });
  assert.deepEqual(chat.prepare('é'.repeat(301)), { reason: 'text_too_long' });
  // code points, not UTF-16 units: 300 emoji are 300 characters
  assert.equal(chat.codePoints('😀😀'), 2);
  assert.deepEqual(chat.prepare('😀'.repeat(300)), { text: '😀'.repeat(300) });
});

test('chat: muted authors are remembered, bounded and sanitized', () => {
  chat.setMuted('Ann', true);
  chat.setMuted('Guest-abc123', true);
  chat.setMuted('Ann', true);
  assert.deepEqual(chat.mutedAuthors(), ['Guest-abc123', 'Ann']);
  chat.setMuted('Ann', false);
  assert.deepEqual(chat.mutedAuthors(), ['Guest-abc123']);
  store.set('echecs.chat.muted', '{"not":"a list"}');
  assert.deepEqual(chat.mutedAuthors(), []);
  store.set('echecs.chat.muted', 'not json');
  assert.deepEqual(chat.mutedAuthors(), []);
  assert.deepEqual(chat.sanitizeMuted(['a', 3, null, 'x'.repeat(65), 'b']), ['a', 'b']);
  assert.equal(chat.sanitizeMuted(Array.from({ length: 300 }, (_, i) => `n${i}`)).length, 200);
});

test('chat: the errors the panel shows itself', () => {
  assert.ok(chat.isChatError({ type: 'error', reason: 'chat_rate_limited' }));
  assert.ok(chat.isChatError({ type: 'error', reason: 'text_too_long' }));
  assert.ok(!chat.isChatError({ type: 'error', reason: 'illegal_move' }));
  assert.ok(!chat.isChatError({}));
});

test('your turn: the title marker comes and goes', async () => {
  const yt = await import('../src/your-turn.ts');
  assert.equal(yt.markedTitle('Échecs', 2, 'Your move'), '(2) Your move · Échecs');
  assert.equal(yt.markedTitle('Échecs', 0, 'Your move'), 'Échecs');
  assert.equal(yt.unmarkedTitle('(2) Your move · Ann – Bob'), 'Ann – Bob');
  assert.equal(yt.unmarkedTitle('(1) À vous · Échecs'), 'Échecs');
  assert.equal(yt.unmarkedTitle('Échecs'), 'Échecs');
  assert.deepEqual(yt.sanitizeTurns([{ game: 'abc' }, null, 3, { nope: 1 }]), [{ game: 'abc' }]);
  assert.deepEqual(yt.sanitizeTurns('x'), []);
});
