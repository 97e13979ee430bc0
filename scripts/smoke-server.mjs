// Checks a running echecs server as a user's browser would, bounded in time:
// `/` serves the web client (its page, script and stylesheet), a game against
// the computer can be created and read back, and a seek can be accepted.
//   node scripts/smoke-server.mjs http://127.0.0.1:PORT
const base = process.argv[2];
if (!base) {
  console.error('usage: node scripts/smoke-server.mjs http://HOST:PORT');
  process.exit(2);
}

async function call(method, path, { token, body } = {}) {
  const headers = {};
  if (token) headers['X-Echecs-Token'] = token;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const r = await fetch(base + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10000),
  });
  const text = await r.text();
  return { status: r.status, type: r.headers.get('content-type') || '', text };
}

function check(ok, what, detail) {
  if (!ok) throw new Error(`${what}${detail ? `: ${detail}` : ''}`);
  console.log(`ok   ${what}`);
}

const json = res => JSON.parse(res.text);

try {
  const page = await call('GET', '/');
  check(page.status === 200 && page.type.startsWith('text/html'), 'GET / is an HTML page', `${page.status} ${page.type}`);
  const script = page.text.match(/src="(\/app\.js[^"]*)"/);
  const style = page.text.match(/href="(\/app\.css[^"]*)"/);
  check(script && style && page.text.includes('<title>'), 'the page is the web client (app.js, app.css)', page.text.slice(0, 200));
  const js = await call('GET', script[1]);
  check(js.status === 200 && js.type.includes('javascript') && js.text.length > 10000, `GET ${script[1]}`, `${js.status} ${js.text.length} bytes`);
  const css = await call('GET', style[1]);
  check(css.status === 200 && css.type.startsWith('text/css'), `GET ${style[1]}`, `${css.status}`);

  const ann = json(await call('POST', '/api/session')).token;
  const bob = json(await call('POST', '/api/session')).token;
  check(typeof ann === 'string' && ann.length >= 16 && ann !== bob, 'POST /api/session issues tokens');

  const vs = await call('POST', '/api/computer', {
    token: ann,
    body: { variant: 'alice', level: 1, color: 'white', nickname: 'Smoke' },
  });
  check(vs.status === 201, 'POST /api/computer creates a game', `${vs.status} ${vs.text}`);
  const id = json(vs).game;
  const state = await call('GET', `/api/games/${id}`, { token: ann });
  const s = json(state);
  check(state.status === 200 && s.variant === 'alice' && Array.isArray(s.legal_moves) && s.legal_moves.length === 20,
    `GET /api/games/${id}: an Alice game with White's 20 first moves`, state.text.slice(0, 300));

  const seek = await call('POST', '/api/seeks', {
    token: ann,
    body: { variant: 'avalanche', time: { kind: 'realtime', minutes: 5, increment: 3 }, color: 'white', nickname: 'Ann' },
  });
  check(seek.status === 201, 'POST /api/seeks', `${seek.status} ${seek.text}`);
  const accepted = await call('POST', `/api/seeks/${json(seek).seek.id}/accept`, { token: bob, body: { nickname: 'Bob' } });
  check(accepted.status === 201 && json(accepted).color === 'black', 'the seek is accepted: a game between two players', accepted.text);
  const game = json(await call('GET', `/api/games/${json(accepted).game}`));
  check(game.variant === 'avalanche' && game.legal_moves.length === 160, 'an Avalanche game with White\'s 160 first moves');
  console.log('smoke test passed');
} catch (e) {
  console.error(`FAILED ${e.message}`);
  process.exit(1);
}
