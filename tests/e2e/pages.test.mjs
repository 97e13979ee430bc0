// Smoke test of every page of the web client (the routes of web/src/main.ts),
// at the suite's size: the lobby (in English and in French), a direct
// challenge, a live game against the computer, the three rules pages, the
// analysis board (orthodox and Alice), the problems solver, the board editor,
// the leaderboard, the tournaments and one arena (logged out, then logged in
// with the form and the join button; a Swiss made with the form and
// joined), log-in, sign-up, a profile, the account page and an unknown
// path. Each page is waited for by its own content (never a fixed sleep),
// then: no script error, no horizontal scroll, the site header with its
// eight links (the page's own one marked current) inside the viewport (on a
// phone the header is one row and the links are in its menu: opened, checked,
// closed), the page's title or main element inside the viewport; one
// screenshot each, artifacts/e2e/<device>/pages-<name>.png. An anonymous
// browser's pages log no error in the console (no 401 from asking who is
// logged in). The desktop pass also checks the header at a tablet's width and
// a laptop's.
// e2e sizes: desktop phone
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEVICE, PHONE, closeAll, horizontalOverflow, newPlayer, press, screenshot, signUp, uniqueName, useServerAndBrowser, waitMyTurn } from './lib.mjs';

const env = useServerAndBrowser();

/** The bound on one wait for a page's content: generous, for a loaded 2-core machine. */
const WAIT = 20000;
/** The bound on a navigation (the page's HTML, script and style). */
const NAV = 30000;

// One browser context for the anonymous pages (both first tests), one for the
// logged-in pages: created when first needed, closed after the file.
let anon = null;
let member = null;
after(async () => {
  await closeAll(...[anon, member].filter(Boolean));
});
async function anonymous() {
  if (!anon) {
    anon = await newPlayer(env.browser, env.server.url, 'en-US');
    // what the browser logs as an error (a failed request among them: a 401 is one)
    anon.page.consoleErrors = [];
    anon.page.on('console', m => {
      if (m.type() === 'error') anon.page.consoleErrors.push(`${m.text()} (${m.location()?.url ?? ''})`);
    });
  }
  return anon.page;
}

/**
 * The header's eight links: on a phone behind the menu button (the header one
 * row, the links hidden until it is opened: opened here, checked, closed),
 * elsewhere in the header itself. Each inside the viewport, the page's own one
 * marked current.
 */
async function checkHeaderLinks(page, where, nav) {
  const links = page.locator('header.site-header nav.site-nav a[data-nav]');
  const menu = page.locator('header.site-header [data-action="menu"]');
  assert.equal(await links.count(), 8, `${where}: the header's links`);
  if (PHONE) {
    assert.ok(await menu.isVisible(), `${where}: the menu button`);
    assert.equal(await links.first().isVisible(), false, `${where}: the links wait in the menu`);
    const h = (await page.locator('header.site-header').boundingBox()).height;
    assert.ok(h <= 60, `${where}: the header is one row (${h} px)`);
    await assertInViewport(page, 'header.site-header [data-action="menu"]', where);
    assert.equal(await menu.getAttribute('aria-expanded'), 'false');
    await press(page, menu);
    await links.last().waitFor({ state: 'visible', timeout: WAIT });
    assert.equal(await menu.getAttribute('aria-expanded'), 'true', `${where}: the menu says it is open`);
  } else {
    assert.equal(await menu.isVisible(), false, `${where}: no menu button, the links are in the header`);
  }
  for (let i = 0; i < 8; i++) {
    assert.ok(await links.nth(i).isVisible(), `${where}: header link ${i + 1} is visible`);
    const p = await placement(page, links.nth(i));
    assert.ok(p.inside, `${where}: header link ${i + 1} is not inside the viewport: ${JSON.stringify(p.rect)}`);
  }
  const current = await page.locator('header.site-header nav.site-nav a[aria-current="page"]').evaluateAll(as => as.map(a => a.dataset.nav));
  assert.deepEqual(current, nav ? [nav] : [], `${where}: the header link marked current`);
  if (PHONE) {
    await press(page, menu);
    await links.first().waitFor({ state: 'hidden', timeout: WAIT });
    assert.equal(await menu.getAttribute('aria-expanded'), 'false', `${where}: the menu closed`);
  }
}

/** A POST of the HTTP API (docs/API.md) with the given browser token; returns the JSON answer. */
async function post(path, token, body) {
  const res = await fetch(`${env.server.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Echecs-Token': token },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  assert.ok(res.ok, `POST ${path}: ${res.status} ${text}`);
  return JSON.parse(text);
}

/** Where an element is, against the viewport the suite set (not the page's own idea of it). */
async function placement(page, locator) {
  const { width, height } = page.viewportSize();
  const r = await locator.evaluate(e => {
    const b = e.getBoundingClientRect();
    return { left: b.left, top: b.top, right: b.right, bottom: b.bottom, width: b.width, height: b.height };
  });
  const inside = r.width > 0 && r.height > 0 && r.left >= -1 && r.top >= -1 && r.right <= width + 1 && r.bottom <= height + 1;
  return { inside, rect: Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Math.round(v)])), viewport: { width, height } };
}

async function assertInViewport(page, selector, what) {
  const p = await placement(page, page.locator(selector).first());
  assert.ok(p.inside, `${what}: ${selector} is not inside the ${p.viewport.width}x${p.viewport.height} viewport: ${JSON.stringify(p.rect)}`);
}

/** A selector, or { sel, text } (the element with that text), or a function that waits by itself. */
async function waitReady(page, r) {
  if (typeof r === 'function') return r();
  const loc = typeof r === 'string' ? page.locator(r) : page.locator(r.sel, { hasText: r.text });
  await loc.first().waitFor({ state: 'visible', timeout: WAIT });
}

/**
 * Opens `path` (or stays on the page, path null), waits for every `ready`
 * element, then checks the page; the screenshot is taken before the
 * assertions, so that a failure has its picture.
 *   title: the page's title/h1 (or main element), visible and inside the viewport
 *   nav: the header link marked current (null: none)
 *   user: the header's account link, 'login' (logged out) or 'user'
 */
async function checkPage(page, { name, path, ready, title, nav = null, user = 'login' }) {
  const seen = page.errors.length;
  if (path !== null) await page.goto(path, { timeout: NAV });
  for (const r of ready) await waitReady(page, r);
  await page.locator(title).first().waitFor({ state: 'visible', timeout: WAIT });
  // the header: brand, its eight links, the account link (the log-in state is known once the page asked)
  await page.locator(`header.site-header [data-role="${user}"]`).waitFor({ state: 'visible', timeout: WAIT });
  await screenshot(page, `pages-${name}`);

  const where = `${name} (${DEVICE})`;
  await assertInViewport(page, 'header.site-header .brand', where);
  await checkHeaderLinks(page, where, nav);
  await assertInViewport(page, `header.site-header [data-role="${user}"]`, where);
  for (const l of ['fr', 'en']) await assertInViewport(page, `header.site-header .lang-btn[data-lang="${l}"]`, where);
  await assertInViewport(page, title, where);

  // No horizontal scroll (against the viewport the suite set: see lib.mjs).
  assert.equal(await horizontalOverflow(page), '', `${where}: horizontal scroll`);
  assert.deepEqual(page.errors.slice(seen), [], `${where}: script errors`);
  if (page.consoleErrors) assert.deepEqual(page.consoleErrors, [], `${where}: errors in the console`);
}

test('the lobby in English and in French, a direct challenge, a live game', { timeout: 120000 }, async () => {
  const page = await anonymous();
  const lobbyReady = (pools, seeks) => [
    // the pools came from GET /api/pools, the seek list from the lobby (a seek or "no open seek")
    '.lobby .pools .pool-grid button',
    '.lobby .seek-list > *',
    '.lobby .computer-form [data-action="play-computer"]',
    { sel: '.lobby #pools-title', text: pools },
    { sel: '.lobby .panel h2', text: seeks },
  ];
  await checkPage(page, { name: 'lobby-en', path: '/', ready: lobbyReady('Quick pairing', 'Open seeks'), title: '.lobby #pools-title', nav: 'lobby' });
  assert.equal(await page.getAttribute('html', 'lang'), 'en');
  assert.equal(await page.locator('nav.site-nav a[data-nav="lobby"]').textContent(), 'Play');

  // French: the header's switch, then a fresh load (the choice is kept)
  await press(page, 'header .lang-btn[data-lang="fr"]');
  await page.locator('html[lang="fr"]').waitFor({ state: 'attached', timeout: WAIT });
  await page.reload({ timeout: NAV });
  await checkPage(page, { name: 'lobby-fr', path: null, ready: lobbyReady('Partie rapide', 'Propositions ouvertes'), title: '.lobby #pools-title', nav: 'lobby' });
  assert.equal(await page.getAttribute('html', 'lang'), 'fr');
  assert.equal(await page.locator('nav.site-nav a[data-nav="lobby"]').textContent(), 'Jouer');
  await press(page, 'header .lang-btn[data-lang="en"]');
  await page.locator('html[lang="en"]').waitFor({ state: 'attached', timeout: WAIT });

  // a direct challenge from somebody else's browser, from a set-up position (the page shows its board)
  const ann = `pages${Math.random().toString(36).slice(2, 14).padEnd(12, '0')}`;
  const { seek, url } = await post('/api/seeks', ann, {
    variant: 'chess',
    time: { kind: 'realtime', minutes: 5, increment: 3 },
    color: 'white',
    nickname: 'Ann',
    private: true,
    fen: '4k3/8/8/8/8/8/4P3/4K3 w - - 0 1',
  });
  assert.equal(url, `/challenge/${seek.id}`);
  await checkPage(page, {
    name: 'challenge',
    path: url,
    ready: ['.challenge [data-action="accept-seek"]', '.challenge .challenge-position cg-board', { sel: '.challenge p', text: 'Ann' }],
    title: '.challenge h2',
    nav: 'lobby',
  });

  // a live game against the computer, created with this browser's own token: its seat is this page's
  const token = await page.evaluate(() => localStorage.getItem('echecs.token'));
  assert.match(token ?? '', /^[A-Za-z0-9_-]{16,64}$/, 'the page has its token');
  const { game } = await post('/api/computer', token, { variant: 'chess', level: 1, color: 'white', time: { kind: 'realtime', minutes: 10, increment: 0 } });
  await checkPage(page, {
    name: 'game',
    path: `/game/${game}`,
    ready: ['.game-page .game-board cg-board', '.game-page .game-board piece.white.king', '.game-side .game-info .variant-name', () => waitMyTurn(page, WAIT)],
    title: '.game-page .game-board cg-board',
  });
});

test('rules, analysis, problems, editor, leaderboard, tournaments, log-in, sign-up, not found', { timeout: 150000 }, async () => {
  // The built client hands out no source maps (web/scripts/build.mjs).
  for (const map of ['/app.js.map', '/app.css.map'])
    assert.ok(!(await (await fetch(`${env.server.url}${map}`)).text()).includes('"mappings"'), `${map} is served`);
  const page = await anonymous();
  for (const variant of ['chess', 'alice', 'avalanche'])
    await checkPage(page, {
      name: `rules-${variant}`,
      path: `/rules/${variant}`,
      ready: [`.rules[data-variant="${variant}"] figure.diagram cg-board`, `.rules-tabs a[aria-current="page"][href="/rules/${variant}"]`],
      title: '.rules h1',
      nav: 'rules',
    });

  // the analysis board: the server's answer fills the position's FEN, and no error is shown
  const analysed = async () => {
    await page.waitForFunction(() => document.querySelector('.analysis-page .fen-row input.fen-field[readonly]')?.value, null, { timeout: WAIT });
    assert.equal(await page.locator('.analysis-page .game-side > .form-msg').first().textContent(), '', 'no error under the analysis board');
  };
  for (const [name, path, variant] of [
    ['analysis', '/analysis', 'chess'],
    ['analysis-alice', '/analysis?variant=alice', 'alice'],
  ]) {
    await checkPage(page, {
      name,
      path,
      ready: [
        '.analysis-page .game-board cg-board',
        '.analysis-page .game-board .board-wrap[data-board="a"] piece.white.king',
        ...(variant === 'alice' ? [() => page.locator('.analysis-page .board-wrap[data-board="b"]').waitFor({ state: 'attached', timeout: WAIT })] : []),
        analysed,
      ],
      title: '.analysis-page .game-board cg-board',
      nav: 'analysis',
    });
    assert.equal(await page.locator('.analysis-page select[name="variant"]').inputValue(), variant);
    assert.ok(await page.locator('.analysis-page h1').isVisible(), 'the analysis title');
  }

  await checkPage(page, {
    name: 'problems',
    path: '/problems',
    ready: ['.problems-page .game-board cg-board', '.problems-page .board-wrap[data-board="a"] piece', '.problems-page [data-action="solve"]'],
    title: '.problems-page .game-board cg-board',
    nav: 'problems',
  });
  assert.ok(await page.locator('.problems-page h1').isVisible(), 'the problems title');

  await checkPage(page, {
    name: 'puzzles',
    path: '/puzzles?variant=alice',
    // a puzzle from the server on the board, the solver to move
    ready: ['.puzzles-page[data-puzzle][data-ply="0"]', '.puzzles-page .board-wrap[data-board="a"] piece', '.puzzles-page [data-role="puzzle-rating"]'],
    title: '.puzzles-page .game-board cg-board',
    nav: 'puzzles',
  });
  assert.ok(await page.locator('.puzzles-page h1').isVisible(), 'the puzzles title');

  await checkPage(page, {
    name: 'editor',
    path: '/editor',
    // the server judged the initial position legal
    ready: ['.editor-page .game-board cg-board', '.editor-page .board-wrap[data-board="a"] piece.white.king', '.editor-page .editor-verdict[data-state="legal"]'],
    title: '.editor-page .game-board cg-board',
    nav: 'editor',
  });
  assert.ok(await page.locator('.editor-page h1').isVisible(), 'the editor title');

  await checkPage(page, {
    name: 'leaderboard',
    path: '/leaderboard',
    // the board came (a new server: nobody on it yet)
    ready: ['.leaderboard .board-tabs a[aria-current="page"]', '.leaderboard-body :is(.empty, table)'],
    title: '.leaderboard h1',
    nav: 'leaderboard',
  });

  await checkPage(page, {
    name: 'tournaments',
    path: '/tournaments',
    // the list came (a new server: its daily arenas), and a visitor is asked to log in to create one
    ready: ['.tournaments-page [data-role="open"] .tournament-row', '.tournament-create [data-action="login"]'],
    title: '.tournaments-page h1',
    nav: 'tournaments',
  });
  const daily = (await (await fetch(`${env.server.url}/api/tournaments`)).json()).tournaments.find(x => x.daily);
  assert.ok(daily, 'a new server has its daily arenas');
  await checkPage(page, {
    name: 'tournament',
    path: `/tournament/${daily.id}`,
    // the arena came (its clock), the standings (nobody yet) and a visitor's prompt to log in
    ready: [`.tournament-page[data-tournament="${daily.id}"] [data-role="countdown"][data-status]`, '.tournament-standings .empty', '.tournament-head [data-action="login"]'],
    title: '.tournament-page h1',
    nav: 'tournaments',
  });

  await checkPage(page, {
    name: 'login',
    path: '/login',
    ready: ['#login-form #account-username', '#login-form #account-password', '#login-form button[type=submit]'],
    title: '#login-form h1',
  });
  await checkPage(page, {
    name: 'signup',
    path: '/signup',
    ready: ['#signup-form #account-username', '#signup-form #account-confirm', '#signup-form button[type=submit]'],
    title: '#signup-form h1',
  });
  // "Already have an account? Log in": the link is told from the text by more than its colour
  const loginLink = page.locator('.account-page .account-switch a[href="/login"]');
  assert.match(await loginLink.evaluate(a => getComputedStyle(a).textDecorationLine), /underline/, 'the log-in link is underlined');
  assert.match(await loginLink.evaluate(a => getComputedStyle(a.parentElement).textDecorationLine), /none/, 'its sentence is not');
  await checkPage(page, {
    name: 'not-found',
    path: '/no/such/page',
    ready: [{ sel: '.site-main .not-found p', text: 'This page does not exist.' }, '.site-main .not-found a[href="/"]'],
    title: '.site-main .not-found p',
  });
});

test('logged in: a real account\'s profile, the account page, the tournaments', { timeout: 120000 }, async t => {
  const res = await fetch(`${env.server.url}/api/account`);
  if (res.status === 404) {
    t.skip('this server does not serve the accounts API (GET /api/account: 404)');
    return;
  }
  member = await newPlayer(env.browser, env.server.url, 'en-US');
  const page = member.page;
  const name = uniqueName('pages');
  await signUp(page, name, 'pages passphrase 1');
  await checkPage(page, {
    name: 'profile',
    path: `/@/${name}`,
    ready: [
      { sel: '.profile-head h1', text: name },
      '.profile-page [data-role="counts"]',
      // the game list came (a new account: none yet)
      '.profile-page [aria-labelledby="games-title"] :is(.profile-games > *, .empty)',
    ],
    title: '.profile-head h1',
    user: 'user',
  });
  await checkPage(page, {
    name: 'account',
    path: '/account',
    ready: [{ sel: '.account-page h1', text: name }, '#password-form #account-old_password', '.account-page [data-action="logout"]'],
    title: '.account-page h1',
    user: 'user',
  });
  assert.equal((await page.locator('header [data-role="user"] .user-name').textContent())?.trim(), name);

  // the tournaments with the form that creates an arena, one arena with the button that joins it
  await checkPage(page, {
    name: 'tournaments-member',
    path: '/tournaments',
    ready: ['.tournaments-page [data-role="open"] .tournament-row', '#tournament-form [data-action="create-tournament"]'],
    title: '.tournaments-page h1',
    nav: 'tournaments',
    user: 'user',
  });
  const id = await page.locator('.tournaments-page [data-role="open"] .tournament-row').first().getAttribute('data-tournament-id');
  await checkPage(page, {
    name: 'tournament-member',
    path: `/tournament/${id}`,
    ready: [`.tournament-page[data-tournament="${id}"] [data-role="countdown"][data-status]`, '.tournament-head [data-action="join"]'],
    title: '.tournament-page h1',
    nav: 'tournaments',
    user: 'user',
  });

  // a Swiss made with the form (its kind, rounds, interval), then joined: its page with the standings' table
  await page.goto('/tournaments', { timeout: NAV });
  await page.locator('#tournament-form #t-kind').selectOption('swiss');
  await page.locator('#tournament-form #t-rounds').fill('4');
  await page.locator('#tournament-form #t-round-interval').fill('0');
  await press(page, '#tournament-form [data-action="create-tournament"]');
  await page.waitForURL(/\/tournament\//, { timeout: NAV });
  await press(page, '.tournament-head [data-action="join"]');
  await checkPage(page, {
    name: 'tournament-swiss',
    path: null,
    ready: [
      { sel: '.tournament-meta', text: 'Swiss, 4 rounds' },
      { sel: '.tournament-standings .standings.swiss [data-standing] .name', text: name },
      '.tournament-head [data-role="waiting"]',
      '.tournament-head [data-action="withdraw"]',
    ],
    title: '.tournament-page h1',
    nav: 'tournaments',
    user: 'user',
  });
});

test('the header at a tablet\'s width (768x1024, touch) and a laptop\'s (1366x768): one row, nothing wrapped or cut', { skip: PHONE && 'desktop pass only', timeout: 60000 }, async () => {
  for (const [name, device, menu] of [
    ['tablet', { viewport: { width: 768, height: 1024 }, hasTouch: true, isMobile: true }, true],
    ['laptop', { viewport: { width: 1366, height: 768 }, hasTouch: false, isMobile: false }, false],
  ]) {
    const p = await newPlayer(env.browser, env.server.url, 'en-US', device);
    try {
      const page = p.page;
      await page.goto('/', { timeout: NAV });
      await page.locator('.lobby #pools-title').waitFor({ state: 'visible', timeout: WAIT });
      await page.locator('header.site-header [data-role="login"]').waitFor({ state: 'visible', timeout: WAIT });
      const where = `header at ${name} size`;
      const h = (await page.locator('header.site-header').boundingBox()).height;
      assert.ok(h <= 60, `${where}: one row (${h} px)`);
      for (const sel of ['.brand', '[data-role="login"]', '[data-action="settings"]', '[data-action="sound"]', '.lang-btn[data-lang="fr"]', '.lang-btn[data-lang="en"]'])
        await assertInViewport(page, `header.site-header ${sel}`, where);
      // "Log in" on one line, the language buttons whole (not cut by their box)
      assert.equal(await page.locator('header.site-header .user-login').evaluate(e => e.getClientRects().length), 1, `${where}: "Log in" wraps`);
      const cut = await page.locator('header.site-header .lang-switch').evaluate(e => e.scrollWidth - e.clientWidth);
      assert.ok(cut <= 0, `${where}: the language buttons are cut by ${cut} px`);
      const links = page.locator('header.site-header nav.site-nav a[data-nav]');
      const button = page.locator('header.site-header [data-action="menu"]');
      assert.equal(await button.isVisible(), menu, `${where}: the menu button ${menu ? 'shown' : 'not shown'}`);
      if (menu) {
        await press(page, button);
        await links.last().waitFor({ state: 'visible', timeout: WAIT });
      }
      for (let i = 0; i < 8; i++) {
        const pl = await placement(page, links.nth(i));
        assert.ok(pl.inside && (await links.nth(i).isVisible()), `${where}: header link ${i + 1}: ${JSON.stringify(pl.rect)}`);
      }
      await screenshot(page, `pages-header-${name}`);
      if (menu) {
        // a link followed closes the menu
        await press(page, links.nth(1));
        await page.waitForURL(/\/rules\//, { timeout: NAV });
        await links.first().waitFor({ state: 'hidden', timeout: WAIT });
      }
      assert.equal(await horizontalOverflow(page), '', `${where}: horizontal scroll`);
      assert.deepEqual(page.errors, [], `${where}: script errors`);
    } finally {
      await closeAll(p);
    }
  }
});
