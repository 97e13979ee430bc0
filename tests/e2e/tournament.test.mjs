// e2e sizes: desktop phone
// An arena tournament between four browsers: four players sign up; Ann
// creates an arena that starts at once from the /tournaments form; Ann and
// Bob join it from its page and the arena takes both to the same game, with
// opposite colours; before any move White goes berserk (both pages mark
// White, whose clock is halved, and link back to the arena), then Bob
// resigns, and the arena pairs Ann and Bob again at once (both taken to the
// next game, where each plays a move so that it cannot be aborted while the
// test reads the standings); then Cid and Dee join, and the arena pairs them
// together (the only free players), a second game at once; on the
// tournament page (Ann by the game's link to it) all four see Ann first with 2 points, the three others at 0, both games in
// progress and their own game's link, and Bob's pause appears live on
// Ann's page; Ann's profile lists the arena with her rank (first of four)
// and her 2 points. No serious axe-core violation on the list, the
// standings and the profile. Skipped, saying so, by a server without the accounts API.
// Every wait is bounded and says what it waited for.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { accountPlayers, closeAll, colourOf, GAME_PATH, press, screenshot, seriousA11yViolations, typeMove, useServerAndBrowser, waited, waitGame } from './lib.mjs';

const env = useServerAndBrowser();

/** The bound on a pairing (the arena pairs once a second; a loaded 2-core machine is slow). */
const PAIRING = 60000;
/** The bound on any other wait for the page. */
const WAIT = 20000;

test('an arena of four: created, joined, two games paired, a berserk shown, a resignation scored, paired again, a pause shown live, on the profile', { timeout: 360000 }, async t => {
  if ((await fetch(`${env.server.url}/api/account`)).status === 404) return t.skip('no accounts API on this server');
  const [ann, bob, cid, dee] = await accountPlayers(env, 'ann', 'bob', 'cid', 'dee');
  try {
    // Ann creates the arena from the list's form: chess 10+0 (no game ends on time
    // while the test runs), 30 minutes, starting now.
    await ann.page.goto('/tournaments');
    await waited('the create form', ann.page.locator('#tournament-form').waitFor({ timeout: WAIT }));
    await waited('the daily arenas in the list', ann.page.locator('[data-role="open"] .tournament-row').first().waitFor({ timeout: WAIT }));
    assert.deepEqual(await seriousA11yViolations(ann.page), [], 'axe-core on the list and its form');
    await ann.page.selectOption('#t-variant', 'chess');
    await ann.page.fill('#t-minutes', '10');
    await ann.page.fill('#t-increment', '0');
    await ann.page.fill('#t-duration', '30');
    await ann.page.fill('#t-starts-in', '0');
    await ann.page.fill('#t-name', 'E2E arena');
    await press(ann.page, '[data-action="create-tournament"]');
    await waited('the new tournament page', ann.page.waitForURL(/\/tournament\/[A-Za-z0-9]+$/, { timeout: WAIT }));
    const id = new URL(ann.page.url()).pathname.split('/').pop();
    const root = `.tournament-page[data-tournament="${id}"]`;
    await waited('the tournament title', ann.page.locator(`${root} h1`, { hasText: 'E2E arena' }).waitFor({ timeout: WAIT }));
    assert.match(await ann.page.locator(`${root} .tournament-meta`).textContent(), /Arena · Chess · 10\+0 · Rated/);

    // Both join from the tournament's page: Ann first (alone, she waits), then Bob.
    await press(ann.page, '[data-action="join"]');
    await waited('Ann in the standings', ann.page.locator(`[data-standing="${ann.account}"][data-score="0"]`).waitFor({ timeout: WAIT }));
    await waited('the pause button', ann.page.locator('[data-action="withdraw"]').waitFor({ timeout: WAIT }));
    await bob.page.goto(`/tournament/${id}`);
    await waited('Bob sees Ann in the standings', bob.page.locator(`[data-standing="${ann.account}"]`).waitFor({ timeout: WAIT }));
    await press(bob.page, '[data-action="join"]');

    // The arena pairs them: both are taken to the same game, with opposite colours.
    const [game1, game1b] = await Promise.all([
      waitGame(ann.page, 'the arena to take Ann to her game', PAIRING),
      waitGame(bob.page, 'the arena to take Bob to his game', PAIRING),
    ]);
    assert.equal(game1, game1b, 'both in the same game');
    const colours = [await colourOf(ann.page), await colourOf(bob.page)];
    assert.deepEqual([...colours].sort(), ['black', 'white'], `opposite colours (Ann ${colours[0]}, Bob ${colours[1]})`);

    // Before any move, both may go berserk; White does: 10:00 halved to 5:00 (no clock runs
    // before the first moves), marked on both pages; Black keeps 5:00 and the choice.
    const [white1, black1] = colours[0] === 'white' ? [ann.page, bob.page] : [bob.page, ann.page];
    await waited("White's Berserk button", white1.locator('[data-action="berserk"]').waitFor({ timeout: WAIT }));
    await waited("Black's Berserk button", black1.locator('[data-action="berserk"]').waitFor({ timeout: WAIT }));
    await press(white1, '[data-action="berserk"]');
    for (const [p, who] of [
      [ann.page, 'Ann'],
      [bob.page, 'Bob'],
    ]) {
      await waited(`White's berserk mark on ${who}'s page`, p.locator('[data-berserk="white"]:visible').waitFor({ timeout: WAIT }));
      await waited(`White's clock halved on ${who}'s page`, p.locator('.clock-white:visible', { hasText: '5:00' }).waitFor({ timeout: WAIT }));
      assert.equal(await p.locator('.clock-black:visible').textContent(), '10:00', `Black's clock on ${who}'s page`);
      assert.equal(await p.locator('[data-berserk="black"]').count(), 0, `no berserk mark for Black on ${who}'s page`);
      assert.equal(await p.locator('[data-action="back-to-tournament"]').getAttribute('href'), `/tournament/${id}`, `the link back to the arena on ${who}'s page`);
    }
    await waited("White's Berserk button gone", white1.locator('[data-action="berserk"]').waitFor({ state: 'detached', timeout: WAIT }));
    assert.equal(await black1.locator('[data-action="berserk"]').count(), 1, 'Black may still go berserk');
    await screenshot(white1, 'tournament-berserk');

    // Bob resigns (the button asks for a second press).
    await press(bob.page, '[data-action="resign"]');
    await press(bob.page, '[data-action="resign"]');
    // The result on both pages, at once: the arena pairs them again within a
    // second, and the pairing takes each page to the next game, so a page
    // already there has had the end too (the standings below check the score).
    await Promise.all(
      [
        [ann.page, 'Ann'],
        [bob.page, 'Bob'],
      ].map(([p, who]) =>
        waited(
          `the result on ${who}'s page (or ${who} taken to the next game)`,
          Promise.any([
            p.locator('.result-banner', { hasText: 'by resignation' }).waitFor({ timeout: WAIT }),
            p.waitForURL(u => GAME_PATH.test(u.pathname) && u.pathname !== `/game/${game1}`, { timeout: WAIT }),
          ]),
        ),
      ),
    );

    // Both free and here: the arena pairs them again and takes both to the next game.
    const [game2, game2b] = await Promise.all([
      waitGame(ann.page, 'the arena to pair Ann again', PAIRING, game1),
      waitGame(bob.page, 'the arena to pair Bob again', PAIRING, game1),
    ]);
    assert.equal(game2, game2b, 'both in the same next game');
    // a move each: the game can no longer be aborted for want of a first move
    const [white, black] = (await colourOf(ann.page)) === 'white' ? [ann.page, bob.page] : [bob.page, ann.page];
    await typeMove(white, 'e4', 1);
    await typeMove(black, 'e5', 2);

    // Cid and Dee join while Ann and Bob play their second game: the only free players,
    // paired together; a move each, so that it is not aborted for want of a first move.
    for (const [p, who] of [
      [cid, 'Cid'],
      [dee, 'Dee'],
    ]) {
      await p.page.goto(`/tournament/${id}`);
      await waited(`the join button on ${who}'s page`, p.page.locator('[data-action="join"]').waitFor({ timeout: WAIT }));
      await press(p.page, '[data-action="join"]');
    }
    const [other, otherb] = await Promise.all([
      waitGame(cid.page, 'the arena to take Cid to his game', PAIRING),
      waitGame(dee.page, 'the arena to take Dee to her game', PAIRING),
    ]);
    assert.equal(other, otherb, 'Cid and Dee in the same game');
    assert.notEqual(other, game2, "not Ann and Bob's game");
    const [cidWhite, deeWhite] = [(await colourOf(cid.page)) === 'white', (await colourOf(dee.page)) === 'white'];
    assert.notEqual(cidWhite, deeWhite, 'Cid and Dee: opposite colours');
    await typeMove(cidWhite ? cid.page : dee.page, 'd4', 1);
    await typeMove(cidWhite ? dee.page : cid.page, 'd5', 2);

    // On the tournament page (Ann by her game's link to it), all four: Ann 2 points (first),
    // the others 0, both games in progress, and each player's link to their own game.
    await press(ann.page, '[data-action="back-to-tournament"]');
    await waited("the game's link to take Ann back to the arena", ann.page.waitForURL(u => u.pathname === `/tournament/${id}`, { timeout: WAIT }));
    for (const p of [bob, cid, dee]) await p.page.goto(`/tournament/${id}`);
    for (const [p, who, mine] of [
      [ann.page, 'Ann', game2],
      [bob.page, 'Bob', game2],
      [cid.page, 'Cid', other],
      [dee.page, 'Dee', other],
    ]) {
      await waited(`Ann's 2 points on ${who}'s page`, p.locator(`[data-standing="${ann.account}"][data-score="2"]`).waitFor({ timeout: WAIT }));
      for (const name of [bob.account, cid.account, dee.account])
        await waited(`${name}'s 0 on ${who}'s page`, p.locator(`[data-standing="${name}"][data-score="0"]`).waitFor({ timeout: WAIT }));
      const order = await p.locator(`${root} [data-standing]`).evaluateAll(rows => rows.map(r => r.dataset.standing));
      assert.equal(order[0], ann.account, `Ann first on ${who}'s page`);
      assert.deepEqual([...order].sort(), [ann.account, bob.account, cid.account, dee.account].sort(), `the four players on ${who}'s page`);
      assert.equal(await p.locator(`[data-standing="${ann.account}"] .sheet .pt`).allTextContents().then(x => x.join(' ')), '2', "Ann's points per game");
      for (const g of [game2, other])
        await waited(`the game ${g} in progress on ${who}'s page`, p.locator(`.tournament-games a[data-game="${g}"]`).waitFor({ timeout: WAIT }));
      await waited(`${who}'s link to their game`, p.locator(`[data-role="my-game"][href="/game/${mine}"]`).waitFor({ timeout: WAIT }));
    }
    await screenshot(ann.page, 'tournament-standings');
    assert.deepEqual(await seriousA11yViolations(ann.page), [], 'axe-core on the standings');

    // Bob pauses: his page offers to come back, Ann's shows him paused without a reload (the pushed standings).
    await press(bob.page, '[data-action="withdraw"]');
    await waited("Bob's come-back button", bob.page.locator('[data-action="join"]', { hasText: 'Come back' }).waitFor({ timeout: WAIT }));
    await waited("Bob's pause on Ann's page", ann.page.locator(`[data-standing="${bob.account}"][data-score="0"] [data-role="paused"]`).waitFor({ timeout: WAIT }));
    await screenshot(ann.page, 'tournament-paused');

    // Ann's profile: the arena among her tournaments, running, linking to it, her rank first and her 2 points.
    await ann.page.goto(`/@/${ann.account}`);
    const mine = ann.page.locator(`.profile-page [data-profile-tournament="${id}"]`);
    await waited("the arena on Ann's profile", mine.waitFor({ timeout: WAIT }));
    assert.equal(await mine.getAttribute('data-score'), '2', "Ann's score on her profile");
    assert.equal(await mine.getAttribute('data-rank'), '1', "Ann's rank on her profile");
    assert.equal(await mine.getAttribute('data-status'), 'started', 'the arena is running');
    assert.equal(await mine.locator('a.profile-tournament-link').getAttribute('href'), `/tournament/${id}`, 'the link to the arena');
    assert.equal(await mine.locator('a.profile-tournament-link').textContent(), 'E2E arena', "the arena's name");
    assert.match(await mine.textContent(), /In progress.*Rank 1 of 4.*Score: 2/, 'status, rank and score in words');
    assert.equal(await ann.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, 'the profile fits the width');
    await mine.scrollIntoViewIfNeeded();
    await screenshot(ann.page, 'tournament-profile');
    assert.deepEqual(await seriousA11yViolations(ann.page), [], 'axe-core on the profile');

    assert.deepEqual(ann.page.errors, [], "Ann's page: script errors");
    for (const [p, who] of [
      [bob, 'Bob'],
      [cid, 'Cid'],
      [dee, 'Dee'],
    ])
      assert.deepEqual(p.page.errors, [], `${who}'s page: script errors`);
  } finally {
    await closeAll(ann, bob, cid, dee);
  }
});
