// Entry point: header (play, rules, analysis, editor, problems, puzzles, tournaments, leaderboard,
// settings, sound, language), routes.

import { el, clear, svgIcon } from './dom.js';
import { LANGS, initLang, lang, onLangChange, setLang, t } from './i18n.js';
import { fallback, navigate, renderCurrent, route, startRouter } from './router.js';
import { gamePage } from './pages/game.js';
import { lobbyPage, challengePage } from './pages/lobby.js';
import { rulesPage } from './pages/rules.js';
import { analysisPage } from './pages/analysis.js';
import { problemsPage } from './pages/problems.js';
import { puzzlesPage } from './pages/puzzles.js';
import { tournamentsPage } from './pages/tournaments.js';
import { tournamentPage } from './pages/tournament.js';
import { editorPage } from './pages/editor.js';
import { openSettings } from './pages/settings-dialog.js';
import { http, ws } from './api.js';
import { GameInfo, setGames } from './games.js';
import { setSound, soundOn, played } from './sound.js';
import { currentUser, onUserChange, refreshUser } from './account-api.js';
import { accountPage, loginPage, signupPage } from './pages/account.js';
import { profilePage } from './pages/profile.js';
import { leaderboardPage } from './pages/leaderboard.js';
import { applyTheme, onSettings } from './settings.js';
import { startYourTurn } from './your-turn.js';

initLang();

const header = el('header', { class: 'site-header' });
const main = el('main', { class: 'site-main', id: 'main' });
const footer = el('footer', { class: 'site-footer' });
document.body.append(header, main, footer);
applyTheme();
startYourTurn();

function renderHeader(): void {
  clear(header);
  const nav = el(
    'nav',
    { class: 'site-nav', id: 'site-nav', 'aria-label': t('nav.menu') },
    el('a', { href: '/', 'data-link': '', 'data-nav': 'lobby' }, t('nav.lobby')),
    el('a', { href: '/rules/chess', 'data-link': '', 'data-nav': 'rules' }, t('nav.rules')),
    el('a', { href: '/analysis', 'data-link': '', 'data-nav': 'analysis' }, t('nav.analysis')),
    el('a', { href: '/editor', 'data-link': '', 'data-nav': 'editor' }, t('nav.editor')),
    el('a', { href: '/problems', 'data-link': '', 'data-nav': 'problems' }, t('nav.problems')),
    el('a', { href: '/puzzles', 'data-link': '', 'data-nav': 'puzzles' }, t('nav.puzzles')),
    el('a', { href: '/tournaments', 'data-link': '', 'data-nav': 'tournaments' }, t('nav.tournaments')),
    el('a', { href: '/leaderboard', 'data-link': '', 'data-nav': 'leaderboard' }, t('nav.leaderboard')),
  );
  const brand = el('a', { href: '/', 'data-link': '', class: 'brand' }, el('span', { class: 'brand-icon', 'aria-hidden': 'true' }, '♞'), el('span', { class: 'brand-text' }, t('app.title')));
  const langBox = el('div', { class: 'lang-switch', role: 'group', 'aria-label': t('nav.language') });
  for (const l of LANGS) {
    const b = el('button', { type: 'button', class: `lang-btn${l === lang() ? ' active' : ''}`, 'data-lang': l, lang: l }, l.toUpperCase());
    b.setAttribute('aria-pressed', String(l === lang()));
    b.addEventListener('click', () => setLang(l));
    langBox.appendChild(b);
  }
  const on = soundOn();
  const sound = el('button', {
    type: 'button',
    class: `icon-btn sound-btn${on ? ' active' : ''}`,
    'data-action': 'sound',
    title: on ? t('nav.soundOn') : t('nav.soundOff'),
    'aria-label': on ? t('nav.soundOn') : t('nav.soundOff'),
    'aria-pressed': String(on),
  });
  sound.appendChild(speakerIcon(on));
  sound.addEventListener('click', () => setSound(!soundOn()));
  const gear = el('button', { type: 'button', class: 'icon-btn', 'data-action': 'settings', title: t('nav.settings'), 'aria-label': t('nav.settings') });
  gear.appendChild(
    svgIcon(
      'M19.4 13a7.5 7.5 0 0 0 0-2l2.1-1.6-2-3.5-2.5 1a7.6 7.6 0 0 0-1.7-1L15 3.2h-4l-.4 2.7a7.6 7.6 0 0 0-1.7 1l-2.5-1-2 3.5L6.6 11a7.5 7.5 0 0 0 0 2l-2.1 1.6 2 3.5 2.5-1a7.6 7.6 0 0 0 1.7 1l.4 2.7h4l.4-2.7a7.6 7.6 0 0 0 1.7-1l2.5 1 2-3.5zM13 15.5a3.5 3.5 0 1 1 0-7 3.5 3.5 0 0 1 0 7z',
    ),
  );
  gear.addEventListener('click', () => openSettings());
  const me = currentUser();
  // on a phone the "Log in" text gives way to the icon, and a long name is cut
  const person = svgIcon('M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zm0 2c-2.7 0-8 1.3-8 4v2h16v-2c0-2.7-5.3-4-8-4z');
  const user = me
    ? el('a', { href: '/account', 'data-link': '', class: 'user-link', 'data-role': 'user', title: t('nav.account', { name: me.username }) }, person, el('span', { class: 'user-name' }, me.username))
    : el('a', { href: '/login', 'data-link': '', class: 'user-link', 'data-role': 'login', title: t('nav.login') }, person, el('span', { class: 'user-login' }, t('nav.login')));
  // phones and portrait tablets: the links behind a menu button (CSS shows it and hides them)
  const menu = el('button', {
    type: 'button',
    class: 'icon-btn menu-btn',
    'data-action': 'menu',
    'aria-controls': 'site-nav',
    'aria-expanded': 'false',
    title: t('nav.menuOpen'),
    'aria-label': t('nav.menuOpen'),
  });
  menu.appendChild(svgIcon('M3 6h18v2H3zm0 5h18v2H3zm0 5h18v2H3z'));
  menu.addEventListener('click', () => setMenu(!header.classList.contains('menu-open')));
  nav.addEventListener('click', e => {
    if ((e.target as HTMLElement).closest('a')) setMenu(false);
  });
  header.classList.remove('menu-open');
  // a narrow phone gives the user's name the brand's room (CSS)
  header.classList.toggle('signed-in', !!me);
  header.append(el('div', { class: 'header-top' }, brand, el('div', { class: 'header-right' }, user, gear, sound, langBox, menu)), nav);
  markNav();
  clear(footer);
  footer.append(el('span', {}, t('app.tagline')), el('span', {}, ' · '), el('span', {}, t('footer.text')));
  document.title = t('app.title');
}

/** Opens or closes the header's menu (phones and portrait tablets). */
function setMenu(open: boolean): void {
  header.classList.toggle('menu-open', open);
  const b = header.querySelector<HTMLButtonElement>('[data-action="menu"]');
  if (!b) return;
  b.setAttribute('aria-expanded', String(open));
  const label = open ? t('nav.menuClose') : t('nav.menuOpen');
  b.title = label;
  b.setAttribute('aria-label', label);
}

document.addEventListener('keydown', e => {
  if (e.key === 'Escape' && header.classList.contains('menu-open')) {
    setMenu(false);
    header.querySelector<HTMLButtonElement>('[data-action="menu"]')?.focus();
  }
});
document.addEventListener('click', e => {
  if (header.classList.contains('menu-open') && !header.contains(e.target as Node)) setMenu(false);
});

/** The header link of the page shown is marked as current. */
function markNav(): void {
  const p = location.pathname;
  const current =
    p === '/' || p.startsWith('/challenge')
      ? 'lobby'
      : p.startsWith('/rules')
        ? 'rules'
        : p.startsWith('/analysis')
          ? 'analysis'
          : p.startsWith('/leaderboard')
            ? 'leaderboard'
            : p.startsWith('/problems')
              ? 'problems'
              : p.startsWith('/puzzles')
                ? 'puzzles'
                : p.startsWith('/tournament')
                  ? 'tournaments'
                  : p.startsWith('/editor')
                    ? 'editor'
                    : '';
  for (const a of header.querySelectorAll<HTMLAnchorElement>('[data-nav]')) {
    if (a.dataset.nav === current) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
}

route('/', (root, _p, q) => lobbyPage(root, q));
route('/challenge/:id', (root, p) => challengePage(root, p.id));
route('/game/:id', (root, p) => gamePage(root, p.id));
route('/rules/:variant', (root, p) => rulesPage(root, p.variant));
route('/rules', root => rulesPage(root, ''));
route('/analysis', (root, _p, q) => analysisPage(root, q));
route('/problems', (root, _p, q) => problemsPage(root, q));
route('/puzzles', (root, _p, q) => puzzlesPage(root, q));
route('/tournaments', root => tournamentsPage(root));
route('/tournament/:id', (root, p) => tournamentPage(root, p.id));
route('/editor', (root, _p, q) => editorPage(root, q));
route('/login', (root, _p, q) => loginPage(root, q));
route('/signup', root => signupPage(root));
route('/account', root => accountPage(root));
route('/@/:name', (root, p) => profilePage(root, p.name));
route('/leaderboard', (root, _p, q) => leaderboardPage(root, q));
fallback(root => {
  root.appendChild(
    el('div', { class: 'panel not-found' }, el('p', {}, t('app.notFound')), el('a', { href: '/', 'data-link': '' }, t('game.backToLobby'))),
  );
});

onLangChange(() => {
  renderHeader();
  renderCurrent();
});
let soundShown = soundOn();
onSettings(s => {
  applyTheme(s);
  if (s.sound !== soundShown) {
    soundShown = s.sound;
    renderHeader();
  }
});

renderHeader();
onUserChange(() => renderHeader());
// who this browser is logged in as (a server without accounts: nobody)
void refreshUser().catch(() => undefined);
const socket = ws();
// whichever page is shown, a seek of this browser that is accepted opens its game
socket.on('seek_accepted', m => {
  const path = `/game/${m.game}`;
  if (location.pathname !== path) navigate(path);
});
// an arena pairs a player who is here (a socket open, on any page) and not
// paused: their clock runs, so the game opens wherever they are
socket.on('tournament_paired', m => {
  const path = `/game/${m.game}`;
  if (location.pathname !== path) navigate(path);
});
// for the end-to-end tests and for debugging: drop the connection (it comes back by itself),
// and the sounds played so far
(window as unknown as { echecs: unknown }).echecs = { dropSocket: () => socket.drop(), sounds: played };
// The pages draw the games from the server's table: loaded before the first page.
http<{ variants: GameInfo[] }>('GET', '/api/variants').then(
  r => {
    setGames(r.variants);
    startRouter(main, markNav);
  },
  () => main.appendChild(el('div', { class: 'panel not-found', role: 'alert' }, el('p', {}, t('app.offline')))),
);

function speakerIcon(on: boolean): SVGSVGElement {
  return svgIcon(
    'M3 9v6h4l5 5V4L7 9H3z',
    on
      ? 'M16.5 12A4.5 4.5 0 0 0 14 8v8a4.5 4.5 0 0 0 2.5-4zM14 3.2v2.1a7 7 0 0 1 0 13.4v2.1a9 9 0 0 0 0-17.6z'
      : 'M16 9.4 17.4 8l2.1 2.1L21.6 8 23 9.4l-2.1 2.1 2.1 2.1-1.4 1.4-2.1-2.1-2.1 2.1-1.4-1.4 2.1-2.1z',
  );
}
