// Shared helpers of the end-to-end tests: a real `echecs serve` on a free
// loopback port with a temporary database, headless Debian Chromium driven by
// playwright-core (installed in web/node_modules), and board interaction.
//
// Every test runs at the size named by ECHECS_E2E_DEVICE: `desktop`
// (1400x950, mouse) or `phone` (390x844, touch, mobile). On a touch device the
// board is tapped and dragged with touch events, as a finger would.

import { after, afterEach, before } from 'node:test';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(join(ROOT, 'web/package.json'));
const { chromium } = require('playwright-core');

export const ARTIFACTS = join(ROOT, 'artifacts', 'e2e');

export const DEVICES = {
  desktop: { viewport: { width: 1400, height: 950 }, hasTouch: false, isMobile: false },
  phone: { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true },
};
export const DEVICE = process.env.ECHECS_E2E_DEVICE === 'phone' ? 'phone' : 'desktop';
export const PHONE = DEVICE === 'phone';

function findBinary() {
  const candidates = [
    process.env.ECHECS_BIN,
    join(ROOT, 'build/src/cli/echecs'),
    join(ROOT, 'build-web/src/cli/echecs'),
  ].filter(Boolean);
  for (const c of candidates) if (existsSync(c)) return c;
  throw new Error(`echecs binary not found (tried ${candidates.join(', ')}); build it or set ECHECS_BIN`);
}

function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });
}

/** Pages whose renderer crashed since the last test ended (their URLs). */
const pageCrashes = [];

/** The test file's server and browser: started before its tests, stopped after them. */
export function useServerAndBrowser() {
  const env = { server: null, browser: null };
  before(async () => {
    env.server = await startServer();
    env.browser = await launchBrowser();
  });
  // A server or a browser that died under a test fails that test, saying so
  // (the server with its exit and the end of its log), not the tests after it
  // with a refused connection or a closed browser.
  afterEach(() => {
    const died = env.server?.died();
    if (died) throw new Error(`echecs serve died (${died}); the end of its log:\n${env.server.log().slice(-4000)}`);
    if (env.browser && !env.browser.isConnected()) throw new Error('the browser went away (it crashed or was killed)');
    const crashed = pageCrashes.splice(0);
    if (crashed.length) throw new Error(`pages crashed: ${crashed.join(', ')}`);
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.stop();
  });
  return env;
}

/** Starts `echecs serve` with a temporary SQLite database; returns { url, stop }. */
export async function startServer() {
  // the built client: the package's (ECHECS_WEB_ROOT, as scripts/test.sh runs it) or web/dist
  const webRoot = process.env.ECHECS_WEB_ROOT || join(ROOT, 'web/dist');
  if (!existsSync(join(webRoot, 'index.html'))) throw new Error(`${webRoot} has no index.html: run \`npm run build\` in web/`);
  const dir = mkdtempSync(join(tmpdir(), 'echecs-e2e-'));
  const port = await freePort();
  const bin = findBinary();
  const url = `http://127.0.0.1:${port}`;
  let proc;
  let log = '';
  let stopping = false;
  let died = null; // how the server ended when nobody stopped it
  const launch = async () => {
    proc = spawn(
      bin,
      // a tournament's minute to its start lasts 45 s: a Swiss between browsers starts soon after both joined
      ['serve', '--host', '127.0.0.1', '--port', String(port), '--db', join(dir, 'e2e.db'), '--web-root', webRoot, '--tournament-minute-seconds', '45'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    proc.stdout.on('data', d => (log += d));
    proc.stderr.on('data', d => (log += d));
    proc.once('exit', (code, signal) => {
      if (!stopping) died = signal ? `signal ${signal}` : `exit code ${code}`;
    });
    const deadline = Date.now() + 15000;
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`echecs serve exited (${proc.exitCode}):\n${log}`);
      try {
        const r = await fetch(`${url}/api/lobby`);
        if (r.ok) break;
      } catch {
        /* not yet */
      }
      if (Date.now() > deadline) {
        proc.kill('SIGKILL');
        throw new Error(`echecs serve did not answer on ${url}:\n${log}`);
      }
      await new Promise(r => setTimeout(r, 100));
    }
  };
  const kill = async signal => {
    stopping = true;
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise(r => proc.once('exit', r));
    proc.kill(signal);
    await Promise.race([exited, new Promise(r => setTimeout(r, 3000))]);
    if (proc.exitCode === null && proc.signalCode === null) {
      proc.kill('SIGKILL');
      await exited;
    }
  };
  await launch();
  return {
    url,
    log: () => log,
    /** Why the server ended without being stopped, or null while it runs. */
    died: () => died,
    /** Kills the server (SIGKILL, as a crash) and starts it again on the same port and database. */
    async restart() {
      await kill('SIGKILL');
      stopping = false;
      await launch();
    },
    async stop() {
      await kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The browser: Debian's headless shell (package chromium-headless-shell: the
 * same Chromium, its Blink and V8, without the desktop browser around them;
 * what Playwright itself runs headless), measured at about half the CPU of
 * the whole browser in headless mode (which /usr/bin/chromium is otherwise).
 * $CHROMIUM_PATH overrides.
 */
export const BROWSER_PATH =
  process.env.CHROMIUM_PATH || ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find(p => existsSync(p)) || '/usr/bin/chromium';

export async function launchBrowser() {
  return chromium.launch({
    executablePath: BROWSER_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/**
 * A player: its own browser context (own token in localStorage), a page, a
 * language, at the suite's device size unless `device` says otherwise
 * ({ viewport, hasTouch, isMobile }).
 */
export async function newPlayer(browser, baseURL, locale = 'en-US', device = DEVICES[DEVICE]) {
  const context = await browser.newContext({ baseURL, locale, ...device });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', e => errors.push(String(e)));
  page.on('crash', p => pageCrashes.push(p.url()));
  page.errors = errors;
  page.touch = !!device.hasTouch;
  return { context, page };
}

/** Saves the page as artifacts/e2e/<device>/<name>.png and prints the path. */
export async function screenshot(page, name) {
  const dir = join(ARTIFACTS, DEVICE);
  mkdirSync(dir, { recursive: true });
  // let the animations end (chessground's, and Alice's flight to the other board)
  await page.waitForFunction(() => !document.querySelector('.flyer-wrap'), null, { timeout: 5000 });
  await page.waitForTimeout(300);
  const file = join(dir, `${name}.png`);
  await page.screenshot({ path: file });
  console.log(`screenshot: ${file}`);
  return file;
}

/**
 * Runs axe-core (npm axe-core, evaluated in the page) and returns the
 * violations of serious or critical impact, each as "rule: selector".
 */
export async function seriousA11yViolations(page) {
  // Evaluated through the DevTools protocol, not as a <script> tag: the
  // server's Content-Security-Policy (script-src 'self') refuses inline scripts.
  await page.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
  const found = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map(v => ({ id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 5) }));
  });
  return found.filter(v => v.impact === 'serious' || v.impact === 'critical').map(v => `${v.id} (${v.impact}): ${v.nodes.join(', ')}`);
}

/** A click, or a tap on a touch device. */
export async function press(page, selector) {
  const loc = typeof selector === 'string' ? page.locator(selector) : selector;
  if (page.touch) await loc.tap();
  else await loc.click();
}

/**
 * '' when the page has no horizontal scroll (the document no wider than the
 * viewport the test set; not window.innerWidth: a phone browser widens its
 * layout viewport to content that overflows, and innerWidth with it), else
 * what sticks out, for the failure's message: the document's width and the
 * outermost elements past the viewport's right edge.
 */
export async function horizontalOverflow(page) {
  const width = page.viewportSize()?.width ?? (await page.evaluate(() => window.innerWidth));
  return page.evaluate(width => {
    const scroll = document.documentElement.scrollWidth;
    if (scroll <= width + 1) return '';
    const out = [...document.body.querySelectorAll('*')].filter(e => {
      const r = e.getBoundingClientRect();
      return r.right > width + 1 && !(e.parentElement && e.parentElement.getBoundingClientRect().right > width + 1);
    });
    const name = e => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${[...e.classList].map(c => `.${c}`).join('')}`;
    const what = out.length
      ? out.slice(0, 5).map(e => `${name(e)} (right ${Math.round(e.getBoundingClientRect().right)})`).join(', ')
      : `nothing is past the edge now: something was, and widened the layout viewport to ${window.innerWidth} px`;
    return `the document is ${scroll} px wide in ${width}: ${what}`;
  }, width);
}

// ---------------------------------------------------------------------------
// boards

/** Centre of a square on board 'a' or 'b', in page coordinates. */
export async function squareCenter(page, square, board = 'a') {
  await ensureLarge(page, board);
  const wrap = page.locator(`.game-board .board-wrap[data-board="${board}"] .cg-wrap`);
  const black = await wrap.evaluate(e => e.classList.contains('orientation-black'));
  const box = await page.locator(`.game-board .board-wrap[data-board="${board}"] cg-board`).boundingBox();
  if (!box) throw new Error(`board ${board} not visible`);
  const file = square.charCodeAt(0) - 97;
  const rank = Number(square[1]) - 1;
  const x = black ? 7 - file : file;
  const y = black ? rank : 7 - rank;
  return { x: box.x + (x + 0.5) * (box.width / 8), y: box.y + (y + 0.5) * (box.height / 8) };
}

/**
 * Alice on a phone: one board is large, the other a thumbnail; a player taps
 * the thumbnail to bring that board up before moving on it.
 */
export async function ensureLarge(page, board) {
  const inThumb = page.locator(`.alice-thumb .board-wrap[data-board="${board}"]`);
  if ((await inThumb.count()) === 0) return;
  await press(page, page.locator('.alice-thumb [data-action="swap-boards"]'));
  await page.locator(`.game-board .board-wrap[data-board="${board}"]`).waitFor();
}

export async function clickSquare(page, square, board = 'a') {
  const { x, y } = await squareCenter(page, square, board);
  if (page.touch) await page.touchscreen.tap(x, y);
  else await page.mouse.click(x, y);
}

/** Plays from→to by two clicks (as a person would), on the given board. */
export async function clickMove(page, from, to, board = 'a') {
  await clickSquare(page, from, board);
  await clickSquare(page, to, board);
}

/** Touch events through the DevTools protocol (Playwright's touchscreen only taps). */
async function touchDrag(page, a, b) {
  const cdp = await page.context().newCDPSession(page);
  const point = p => [{ x: p.x, y: p.y, id: 1 }];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: point(a) });
  for (let i = 1; i <= 6; i++) {
    const p = { x: a.x + ((b.x - a.x) * i) / 6, y: a.y + ((b.y - a.y) * i) / 6 };
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: point(p) });
    await page.waitForTimeout(16);
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

/** Plays from→to by dragging the piece (with a finger on a touch device). */
export async function dragMove(page, from, to, board = 'a') {
  const a = await squareCenter(page, from, board);
  const b = await squareCenter(page, to, board);
  if (page.touch) return touchDrag(page, a, b);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 4 });
  await page.mouse.move(b.x, b.y, { steps: 4 });
  await page.mouse.up();
}

/** Waits until the page shows `ply` moves in its move list. */
export async function waitPly(page, ply, timeout = 10000) {
  await page.locator(`.move-list .move[data-ply="${ply}"]`).waitFor({ timeout });
}

/** Waits until it is this page's turn (board accepts moves). */
export async function waitMyTurn(page, timeout = 10000) {
  await page.waitForFunction(() => {
    const s = document.querySelector('.game-status');
    return s && s.getAttribute('data-turn') && document.querySelector('.san-input:not([disabled])');
  }, null, { timeout });
}

/** Waits for `promise`; a failure says what was waited for. */
export async function waited(what, promise) {
  try {
    return await promise;
  } catch (e) {
    throw new Error(`waited for ${what}: ${e.message}`);
  }
}

/** A game page's path; its id the first group. */
export const GAME_PATH = /^\/game\/([A-Za-z0-9]{8})$/;

/** Waits (at most `timeout` ms) until a tournament's pairing has taken the page to a game other than `not`, and its board is drawn; returns the game's id. */
export async function waitGame(page, what, timeout, not = '') {
  await waited(what, page.waitForURL(u => GAME_PATH.test(u.pathname) && !u.pathname.endsWith(`/${not}`), { timeout }));
  await waited(`${what}: its board`, page.locator('.game-board cg-board').first().waitFor({ timeout: 20000 }));
  return new URL(page.url()).pathname.match(GAME_PATH)[1];
}

/** The colour this page plays: its board is turned that way. */
export async function colourOf(page) {
  const wrap = page.locator('.game-board .cg-wrap').first();
  await wrap.waitFor({ timeout: 20000 });
  return (await wrap.getAttribute('class')).includes('orientation-black') ? 'black' : 'white';
}

/** Plays a move typed in SAN once it is this page's turn; waits until the page shows it. */
export async function typeMove(page, san, ply, timeout = 20000) {
  await waited(`the turn before ${san}`, waitMyTurn(page, timeout));
  await page.fill('.san-input', san);
  await page.press('.san-input', 'Enter');
  await waited(`${san} on the page`, waitPly(page, ply, timeout));
}

/** The move list as the server wrote it (SAN, English letters): the cells' data-san. */
export async function moveList(page) {
  return page.locator('.game-side .move-list .move[data-ply]').evaluateAll(cells => cells.map(c => c.getAttribute('data-san')));
}

/** The move list as shown to the user (figurines or letters). */
export async function shownMoves(page) {
  return page.locator('.game-side .move-list .move[data-ply]').allTextContents();
}

/** Fills the "play a person" form of the lobby. */
export async function fillSeekForm(page, { variant, color = 'white', minutes = 10, increment = 0, mode = 'realtime', days, nickname }) {
  const form = page.locator('.create');
  await form.locator('select[name="variant"]').selectOption(variant);
  await form.locator('select[name="mode"]').selectOption(mode);
  if (mode === 'realtime') {
    await form.locator('input[name="minutes"]').fill(String(minutes));
    await form.locator('input[name="increment"]').fill(String(increment));
  }
  if (mode === 'correspondence' && days) await form.locator('input[name="days"]').fill(String(days));
  await form.locator('select[name="color"]').selectOption(color);
  if (nickname !== undefined) await form.locator('input[name="nickname"]').fill(nickname);
}

/** A game against the computer from the lobby's own form; returns when the board is shown. */
export async function playComputer(page, { variant = 'chess', mode = 'unlimited', color = 'white', level = '1' } = {}) {
  await page.goto('/');
  const form = page.locator('.computer-form');
  await form.locator('select[name="variant"]').selectOption(variant);
  await form.locator('select[name="mode"]').selectOption(mode);
  await form.locator('select[name="color"]').selectOption(color);
  await form.locator('select[name="level"]').selectOption(level);
  await press(page, '[data-action="play-computer"]');
  await page.waitForURL(/\/game\/[A-Za-z0-9]{8}$/);
  await page.locator('.game-board cg-board').first().waitFor();
}

/** Ann creates a public seek from the lobby; Bob accepts it; both end on the game page. */
export async function startGame(ann, bob, { variant, color = 'white', minutes = 10, increment = 0, mode = 'realtime' }) {
  await ann.page.goto('/');
  await fillSeekForm(ann.page, { variant, color, minutes, increment, mode, nickname: 'Ann' });
  await press(ann.page, '[data-action="create-seek"]');
  await ann.page.locator('.waiting').waitFor();

  await bob.page.goto('/');
  await bob.page.locator('.create input[name="nickname"]').fill('Bob');
  const row = bob.page.locator('.seek', { hasText: 'Ann' }).first();
  await row.waitFor();
  // the seek list has a header row, the colour column included
  await bob.page.locator('.seek-head .col', { hasText: /Colour of the player|Couleur du joueur/ }).waitFor({ state: 'attached' });
  await press(bob.page, row.locator('[data-action="accept-seek"]'));
  // Bounded; on a loaded machine the accept's round trip (seats, the game
  // stored) can take long: a failure says what the lobby showed meanwhile.
  const toGame = async (p, who) => {
    try {
      await p.waitForURL(/\/game\/[A-Za-z0-9]{8}$/, { timeout: 60000 });
    } catch (e) {
      const shown = await p.locator('.form-msg').allTextContents().catch(() => []);
      throw new Error(`${who} not on the game page within 60 s (at ${p.url()}; the page says ${JSON.stringify(shown.filter(Boolean))}): ${e.message}`);
    }
  };
  await toGame(bob.page, 'Bob, who accepted the seek,');
  await toGame(ann.page, 'Ann, whose seek was accepted,');
  await ann.page.locator('.game-board cg-board').first().waitFor();
  await bob.page.locator('.game-board cg-board').first().waitFor();
  const id = bob.page.url().split('/').pop();
  return id;
}

export async function closeAll(...players) {
  for (const p of players) await p.context.close().catch(() => undefined);
}

export function cleanupDir(d) {
  rmSync(d, { recursive: true, force: true });
}

/** A user name no earlier run has taken (3-20 characters of the allowed set). */
export const uniqueName = prefix => `${prefix}${Date.now().toString(36).slice(-6)}${Math.floor(Math.random() * 100)}`;

/** Signs up through the sign-up page and waits for the new profile. */
export async function signUp(page, name, password) {
  await page.goto('/signup');
  await page.fill('#account-username', name);
  await page.fill('#account-password', password);
  await page.fill('#account-confirm', password);
  await press(page, '#signup-form button[type=submit]');
  await page.waitForURL(new RegExp(`/@/${name}$`));
  await page.locator('[data-role="user"]', { hasText: name }).waitFor();
}

/**
 * Players each signed up with a fresh account (its name in `.account`, made
 * from the prefix), in turn; if one fails, the browsers opened are closed.
 */
export async function accountPlayers(env, ...prefixes) {
  const players = [];
  try {
    for (const prefix of prefixes) {
      const p = await newPlayer(env.browser, env.server.url);
      players.push(p);
      p.account = uniqueName(prefix);
      await signUp(p.page, p.account, `${prefix} passphrase 1`);
    }
    return players;
  } catch (e) {
    await closeAll(...players);
    throw e;
  }
}
