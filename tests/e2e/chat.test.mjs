// e2e sizes: desktop phone
// Chat in a game and the "your turn" list: two players talk (one in French:
// the canned phrase is his language's), a spectator's line stays in the
// spectators' room, markup shows as text, an author is muted (remembered
// after a reload); the lobby lists the game waiting for the player's move and
// the title carries the marker. On a phone the panel starts collapsed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PHONE, closeAll, newPlayer, horizontalOverflow, press, screenshot, startGame, useServerAndBrowser } from './lib.mjs';

const env = useServerAndBrowser();

async function openChat(page) {
  const panel = page.locator('.game-side .chat-panel');
  await panel.waitFor();
  if (PHONE) {
    assert.equal(await panel.locator('.chat-toggle').getAttribute('aria-expanded'), 'false');
    await press(page, panel.locator('.chat-toggle'));
  }
  await panel.locator('.chat-input').waitFor();
  return panel;
}

async function say(page, panel, text) {
  await panel.locator('.chat-input').fill(text);
  await panel.locator('.chat-input').press('Enter');
}

const line = (panel, text) => panel.locator('.chat-line .chat-text', { hasText: text });

test('players chat, a spectator has its own room, canned phrase, mute', { timeout: 120000 }, async () => {
  const ann = await newPlayer(env.browser, env.server.url);
  const bob = await newPlayer(env.browser, env.server.url, 'fr-FR');
  const eve = await newPlayer(env.browser, env.server.url);
  try {
    const id = await startGame(ann, bob, { variant: 'chess', mode: 'unlimited' });
    const a = await openChat(ann.page);
    const b = await openChat(bob.page);
    assert.equal(await a.getAttribute('data-room'), 'players');
    assert.match(await a.locator('.chat-title').textContent(), /^Chat$/);

    const markup = 'Hello Bob <b>bold</b> <img src=x onerror=alert(1)>';
    await say(ann.page, a, markup);
    await line(b, markup).waitFor();
    assert.equal(await b.locator('.chat-text b, .chat-text img').count(), 0); // shown as text, never as HTML
    // an anonymous player is named in the chat as the board names her seat (her nickname), as
    // plain text, never an account's link; her guest name stays the line's author (the mute key)
    const annChatLine = b.locator('.chat-line', { hasText: markup });
    assert.equal(await annChatLine.locator('.chat-author.guest').textContent(), 'Ann');
    assert.equal(await bob.page.locator('.player-bar .name, .game-side .player .name').filter({ hasText: /^Ann$/ }).count() > 0, true, 'the board shows the same name');
    const annAuthor = await annChatLine.getAttribute('data-author');
    assert.match(annAuthor, /^Guest-[0-9a-f]{6}$/);
    assert.equal(await b.locator('.chat-line', { hasText: markup }).locator('a.chat-author').count(), 0);

    // a canned phrase, in the sender's language
    await press(bob.page, b.locator('[data-phrase="goodLuck"]'));
    await line(a, 'Bonne chance').waitFor();

    // the spectator: its own room, unseen by the players, and it does not see theirs
    await eve.page.goto(`/game/${id}`);
    const e = await openChat(eve.page);
    await eve.page.waitForFunction(() => document.querySelector('.chat-panel')?.getAttribute('data-room') === 'spectators');
    assert.match(await e.locator('.chat-title').textContent(), /Spectators/);
    await say(eve.page, e, 'spectator here');
    await line(e, 'spectator here').waitFor();
    assert.equal(await line(e, 'Hello Bob').count(), 0);
    await say(ann.page, a, 'after the spectator');
    await line(b, 'after the spectator').waitFor();
    assert.equal(await line(b, 'spectator here').count(), 0);
    assert.equal(await line(a, 'spectator here').count(), 0);
    await screenshot(ann.page, 'chat-players');
    await screenshot(eve.page, 'chat-spectators');

    // Bob mutes Ann: her lines go, and stay gone after a reload
    const annLine = b.locator(`.chat-line[data-author="${annAuthor}"]`).first();
    await press(bob.page, annLine.locator('[data-action="mute"]'));
    await b.locator('[data-action="unmute"]').waitFor();
    assert.equal(await b.locator(`.chat-line[data-author="${annAuthor}"]`).count(), 0);
    assert.equal(await line(b, 'Bonne chance').count(), 1); // his own line stays
    await bob.page.reload();
    const b2 = await openChat(bob.page);
    await line(b2, 'Bonne chance').waitFor();
    assert.equal(await b2.locator(`.chat-line[data-author="${annAuthor}"]`).count(), 0);
    await press(bob.page, b2.locator('[data-action="unmute"]'));
    await line(b2, 'after the spectator').waitFor();

    // too many lines at once: the server refuses them, the panel says so (not the move field).
    // Lines until the refusal shows (60 at most): the bucket (5, then one every 2 s) refills
    // while a loaded machine types, so a fixed count of 8 was sometimes not too many.
    const refused = a.locator('.chat-msg.error', { hasText: /Too many messages/ });
    for (let i = 0; i < 60 && (await refused.count()) === 0; i++) await say(ann.page, a, `line ${i}`);
    await refused.waitFor();
    assert.doesNotMatch((await ann.page.locator('.input-msg').textContent()) ?? '', /Too many/);

    // chat turned off in the settings: the panel goes
    await press(ann.page, '[data-action="settings"]');
    await ann.page.locator('input[data-setting="chat"]').setChecked(false);
    await press(ann.page, '[data-action="close-settings"]');
    await ann.page.locator('.game-side .chat-panel').waitFor({ state: 'hidden' });

    assert.equal(await horizontalOverflow(bob.page), '', 'no horizontal scroll');
    assert.deepEqual([...ann.page.errors, ...bob.page.errors, ...eve.page.errors], []);
  } finally {
    await closeAll(ann, bob, eve);
  }
});

test('the lobby lists the games waiting for my move; the title says so', { timeout: 90000 }, async () => {
  const ann = await newPlayer(env.browser, env.server.url);
  const bob = await newPlayer(env.browser, env.server.url);
  try {
    const id = await startGame(ann, bob, { variant: 'alice', mode: 'correspondence', days: 3 });
    await ann.page.waitForFunction(() => /^\(1\) Your move · /.test(document.title));
    await ann.page.goto('/');
    const entry = ann.page.locator(`.your-turn .turn-game[data-game="${id}"]`);
    await entry.waitFor();
    assert.match(await entry.textContent(), /Alice chess.*against Bob/);
    assert.match(await ann.page.title(), /^\(1\) Your move · /);
    await bob.page.goto('/');
    await bob.page.locator('.your-turn .empty').waitFor();
    assert.doesNotMatch(await bob.page.title(), /Your move/);
    await screenshot(ann.page, 'your-turn');
    await press(ann.page, entry);
    await ann.page.waitForURL(new RegExp(`/game/${id}$`));
    assert.deepEqual([...ann.page.errors, ...bob.page.errors], []);
  } finally {
    await closeAll(ann, bob);
  }
});
