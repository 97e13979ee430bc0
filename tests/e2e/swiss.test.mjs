// e2e sizes: desktop phone
// A Swiss tournament between two browsers: two players sign up; Ann
// creates a Swiss of 3 rounds from the /tournaments form, starting in a
// minute (45 s on the test server: --tournament-minute-seconds); both join
// from its page and wait for the start; round 1 takes both to the same
// game, with opposite colours; a move each, then Bob resigns; the Swiss has
// no legal round 2 (they have met) and finishes; on its page both see Ann
// first with 1 point and her round won against Bob, Bob 0; Ann's profile
// lists it, finished, her rank first. No serious axe-core violation on the
// final standings. Skipped, saying so, by a server without the accounts API.
// Every wait is bounded and says what it waited for.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { accountPlayers, closeAll, colourOf, press, screenshot, seriousA11yViolations, typeMove, useServerAndBrowser, waited, waitGame } from './lib.mjs';

const env = useServerAndBrowser();

/** The bound on the start (45 s after the creation) and on a pairing, on a loaded 2-core machine. */
const PAIRING = 90000;
/** The bound on any other wait for the page. */
const WAIT = 20000;

test('a Swiss of two: created, joined before its start, round 1 played to a resignation, finished with the standings and on the profile', { timeout: 300000 }, async t => {
  if ((await fetch(`${env.server.url}/api/account`)).status === 404) return t.skip('no accounts API on this server');
  const [ann, bob] = await accountPlayers(env, 'ann', 'bob');
  try {

    // Ann creates it: chess 10+0 (no game ends on time while the test runs), 3 rounds,
    // no wait between rounds, starting in a minute of the test server (45 s).
    await ann.page.goto('/tournaments');
    await waited('the create form', ann.page.locator('#tournament-form').waitFor({ timeout: WAIT }));
    await ann.page.selectOption('#t-kind', 'swiss');
    await ann.page.selectOption('#t-variant', 'chess');
    await ann.page.fill('#t-minutes', '10');
    await ann.page.fill('#t-increment', '0');
    await ann.page.fill('#t-rounds', '3');
    await ann.page.fill('#t-round-interval', '0');
    await ann.page.fill('#t-starts-in', '1');
    await ann.page.fill('#t-name', 'E2E Swiss');
    await press(ann.page, '[data-action="create-tournament"]');
    await waited('the new tournament page', ann.page.waitForURL(/\/tournament\/[A-Za-z0-9]+$/, { timeout: WAIT }));
    const id = new URL(ann.page.url()).pathname.split('/').pop();
    const root = `.tournament-page[data-tournament="${id}"]`;
    await waited('the Swiss title', ann.page.locator(`${root} h1`, { hasText: 'E2E Swiss' }).waitFor({ timeout: WAIT }));
    assert.match(await ann.page.locator(`${root} .tournament-meta`).textContent(), /Swiss, 3 rounds/);

    // Both join before the start, and wait for it.
    await press(ann.page, '[data-action="join"]');
    await waited('Ann in the standings', ann.page.locator(`[data-standing="${ann.account}"][data-points="0"]`).waitFor({ timeout: WAIT }));
    await bob.page.goto(`/tournament/${id}`);
    await waited('the join button on Bob’s page', bob.page.locator('[data-action="join"]').waitFor({ timeout: WAIT }));
    await press(bob.page, '[data-action="join"]');
    for (const [p, who] of [
      [ann.page, 'Ann'],
      [bob.page, 'Bob'],
    ]) {
      await waited(`Bob in the standings on ${who}'s page`, p.locator(`[data-standing="${bob.account}"]`).waitFor({ timeout: WAIT }));
      await waited(`the wait for the start on ${who}'s page`, p.locator(`${root} [data-role="waiting"]`).waitFor({ timeout: WAIT }));
    }
    const status = await (await fetch(`${env.server.url}/api/tournaments/${id}`)).json();
    assert.equal(status.tournament.status, 'created', 'both joined before the start (the machine took over 45 s otherwise)');

    // Round 1: both taken to the same game, with opposite colours.
    const [game, gameb] = await Promise.all([waitGame(ann.page, 'round 1 to take Ann to the game', PAIRING), waitGame(bob.page, 'round 1 to take Bob to the game', PAIRING)]);
    assert.equal(game, gameb, 'both in the same game');
    const colours = [await colourOf(ann.page), await colourOf(bob.page)];
    assert.deepEqual([...colours].sort(), ['black', 'white'], `opposite colours (Ann ${colours[0]}, Bob ${colours[1]})`);
    assert.equal(await ann.page.locator('[data-action="back-to-tournament"]').getAttribute('href'), `/tournament/${id}`, 'the link back to the Swiss');

    // A move each, then Bob resigns (the button asks for a second press).
    const [white, black] = colours[0] === 'white' ? [ann.page, bob.page] : [bob.page, ann.page];
    await typeMove(white, 'e4', 1);
    await typeMove(black, 'e5', 2);
    await press(bob.page, '[data-action="resign"]');
    await press(bob.page, '[data-action="resign"]');
    for (const [p, who] of [
      [ann.page, 'Ann'],
      [bob.page, 'Bob'],
    ])
      await waited(`the result on ${who}'s page`, p.locator('.result-banner', { hasText: 'by resignation' }).waitFor({ timeout: WAIT }));

    // No legal round 2 (they have met): the Swiss is over. Both see Ann first with 1
    // point and her round 1 won against Bob, Bob 0.
    await press(ann.page, '[data-action="back-to-tournament"]');
    await waited("the game's link to take Ann back to the Swiss", ann.page.waitForURL(u => u.pathname === `/tournament/${id}`, { timeout: WAIT }));
    await bob.page.goto(`/tournament/${id}`);
    for (const [p, who] of [
      [ann.page, 'Ann'],
      [bob.page, 'Bob'],
    ]) {
      await waited(`the end of the Swiss on ${who}'s page`, p.locator(`${root} [data-role="countdown"][data-status="finished"]`).waitFor({ timeout: PAIRING }));
      await waited(`Ann's point on ${who}'s page`, p.locator(`[data-standing="${ann.account}"][data-points="1"]`).waitFor({ timeout: WAIT }));
      await waited(`Bob's 0 on ${who}'s page`, p.locator(`[data-standing="${bob.account}"][data-points="0"]`).waitFor({ timeout: WAIT }));
      const order = await p.locator(`${root} [data-standing]`).evaluateAll(rows => rows.map(r => r.dataset.standing));
      assert.deepEqual(order, [ann.account, bob.account], `Ann first on ${who}'s page`);
      const round = p.locator(`[data-standing="${ann.account}"] .rounds .rd`);
      assert.equal(await round.count(), 1, `one round on ${who}'s page`);
      assert.match(await round.getAttribute('class'), /k-played/, `Ann's round 1 played, on ${who}'s page`);
      assert.match(await round.getAttribute('title'), new RegExp(bob.account), `Ann's round 1 against Bob, on ${who}'s page`);
    }
    await screenshot(ann.page, 'swiss-finished');
    assert.deepEqual(await seriousA11yViolations(ann.page), [], 'axe-core on the final standings');

    // Ann's profile: the Swiss among her tournaments, finished, her rank first.
    await ann.page.goto(`/@/${ann.account}`);
    const mine = ann.page.locator(`.profile-page [data-profile-tournament="${id}"]`);
    await waited("the Swiss on Ann's profile", mine.waitFor({ timeout: WAIT }));
    assert.equal(await mine.getAttribute('data-rank'), '1', "Ann's rank on her profile");
    assert.equal(await mine.getAttribute('data-status'), 'finished', 'the Swiss is over');
    assert.equal(await mine.locator('a.profile-tournament-link').getAttribute('href'), `/tournament/${id}`, 'the link to the Swiss');

    assert.deepEqual(ann.page.errors, [], "Ann's page: script errors");
    assert.deepEqual(bob.page.errors, [], "Bob's page: script errors");
  } finally {
    await closeAll(ann, bob);
  }
});
