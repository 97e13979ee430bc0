// The lobby's quick pairing pools (docs/API.md, "Quick pairing"): per game,
// six time controls; a tap joins the pool over the WebSocket, the server
// pairs two waiting players and sends `pool_paired` with the game. Leaving
// the lobby (the page's cleanup) or the socket closing leaves the pool.

import { Socket, http, nickname } from '../api.js';
import { clear, el } from '../dom.js';
import type { Variant } from '../fen.js';
import { errorText } from '../errors.js';
import { formatTime } from '../format.js';
import type { TimeControl } from '../api.js';
import { t } from '../i18n.js';
import { navigate } from '../router.js';
import { variantKey } from '../games.js';

interface Pool {
  id: string;
  variant: Variant;
  time: TimeControl;
  speed: string;
  waiting: number;
}

export function poolsPanel(sock: Socket, variant: () => Variant): { panel: HTMLElement; refresh: () => void; destroy: () => void } {
  const grid = el('div', { class: 'pool-grid' });
  const status = el('div', { class: 'pool-status', 'aria-live': 'polite', hidden: '' });
  const msg = el('div', { class: 'form-msg', 'aria-live': 'polite' });
  const panel = el(
    'section',
    { class: 'panel pools', 'aria-labelledby': 'pools-title' },
    el('h2', { id: 'pools-title' }, t('pools.title')),
    el('p', { class: 'hint' }, t('pools.hint')),
    grid,
    status,
    msg,
  );
  let pools: Pool[] = [];
  let waitingIn: string | null = null;
  let joining = false; // an error now answers our pool_join
  const label = (p: Pool) => (p.time.kind === 'correspondence' ? t('pools.corr') : formatTime(p.time));

  const render = () => {
    clear(grid);
    for (const p of pools.filter(x => x.variant === variant())) {
      const button = el(
        'button',
        { type: 'button', class: `btn pool${waitingIn === p.id ? ' primary' : ''}`, 'data-pool': p.id, 'aria-pressed': String(waitingIn === p.id) },
        el('span', { class: 'pool-time' }, label(p)),
        el('span', { class: 'pool-count' }, t('pools.waitingCount', { n: p.waiting })),
      );
      button.addEventListener('click', () => {
        msg.textContent = '';
        joining = true;
        sock.send({ type: 'pool_join', pool: p.id, nickname: nickname() || undefined });
      });
      grid.appendChild(button);
    }
  };
  const showWaiting = (pool: string | null, rated = false) => {
    joining = false;
    waitingIn = pool;
    clear(status);
    status.hidden = !pool;
    if (pool) {
      const p = pools.find(x => x.id === pool);
      const leave = el('button', { type: 'button', class: 'btn', 'data-action': 'pool-leave' }, t('pools.leave'));
      leave.addEventListener('click', () => sock.send({ type: 'pool_leave' }));
      status.append(
        el('div', { class: 'spinner', 'aria-hidden': 'true' }),
        el('span', {}, t('pools.waiting', { pool: p ? `${t(variantKey(p.variant))} ${label(p)}` : pool, kind: rated ? t('pools.rated') : t('pools.casual') })),
        leave,
      );
    }
    render();
  };
  const refresh = () => {
    http<{ pools: Pool[] }>('GET', '/api/pools').then(
      r => {
        pools = r.pools;
        render();
      },
      () => undefined,
    );
  };
  const offs = [
    sock.on('pool_waiting', m => showWaiting(m.pool, m.rated)),
    sock.on('pool_left', () => showWaiting(null)),
    sock.on('pool_paired', m => {
      showWaiting(null);
      navigate(`/game/${m.game}`);
    }),
    sock.on('error', m => {
      if (joining || m.reason.startsWith('pool_')) msg.textContent = errorText(m);
      joining = false;
    }),
    sock.onStatus(up => {
      if (!up) showWaiting(null); // the server forgets a closed socket's place
    }),
  ];
  refresh();
  const timer = window.setInterval(refresh, 5000);
  return {
    panel,
    refresh: render,
    destroy: () => {
      window.clearInterval(timer);
      if (waitingIn) sock.send({ type: 'pool_leave' });
      offs.forEach(f => f());
    },
  };
}
