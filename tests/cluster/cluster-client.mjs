// The players of the cluster test (scripts/cluster-test.sh starts everything
// this talks to and passes it in the environment):
//
//   CT_NODES   n1=http://127.0.0.1:P1,n2=...   the nodes, by the name they were started with
//   CT_PIDS    n1=PID,n2=...                   their processes (the kill)
//   CT_LB      http://127.0.0.1:P              the balancer (HAProxy)
//   CT_PG      postgresql://...                the database (read with psql)
//   CT_GAMES   number of games (default 24)
//   CT_KILL    1: SIGKILL the node running the most live games (the lobby's of those) in the middle; 0: no kill
//   CT_BUDGET_S  the whole run's time limit (default 150)
//   CT_SUMMARY a file to write the final line to (else it is printed)
//   CT_RETRY_MS  after the kill, an unanswered action is sent again this often (default 300)
//
// Every game: player A creates a seek over HTTP on one node, player B accepts
// it on another; each player's WebSocket is on its own node (player A's on
// A's node, B's on B's), and in a quarter of the games A's socket goes
// through the balancer instead (HAProxy names the node it chose in a header;
// B's socket then goes to another). Every game plays a few moves (chosen from
// the `legal_moves` the server sends, or a known mate), then the node
// running the most live games is killed (SIGKILL) while half the games play
// on (their moves in flight), then every game is played to its planned end:
// a checkmate, a resignation or a draw by agreement.
// Players whose socket was on the dead node reconnect (alternately through
// the balancer and straight to a live node), say hello, join again and send
// again what was not answered; a player whose action is not answered sends
// it again (after the kill every RETRY_AFTER_MS, and at once when a state
// comes that does not answer it). Moves carry their ply: a second copy of a
// stored move is refused as stale, never played twice.
//
// A move is acknowledged when a `state` shows it. At the end every
// acknowledged move (game, ply, uci) must be in the table `moves`, each
// game's moves in the database must be exactly the final state's, and each
// game's status, result and termination those the players saw and the plan
// asked for. The last line printed:
//   cluster: G games, M moves acknowledged, L lost, failover P ms
// (P: the longest time from the kill to the first move answered again in a
// game that moved after it). Exit status 1 on any failure, L > 0 or P >= 5000.

import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(join(ROOT, 'web/package.json'));
const WebSocket = require('ws');

// ---- settings -------------------------------------------------------------

const parseMap = (s) =>
  Object.fromEntries(
    (s || '')
      .split(',')
      .filter(Boolean)
      .map((kv) => {
        const i = kv.indexOf('=');
        return [kv.slice(0, i), kv.slice(i + 1)];
      }),
  );
const NODES = parseMap(process.env.CT_NODES); // name -> base URL
const PIDS = parseMap(process.env.CT_PIDS); // name -> pid
const NODE_NAMES = Object.keys(NODES);
const LB = process.env.CT_LB;
const PG = process.env.CT_PG;
const GAMES = Number(process.env.CT_GAMES || 24);
const KILL = process.env.CT_KILL !== '0';
const BUDGET_MS = Number(process.env.CT_BUDGET_S || 150) * 1000;
const SUMMARY = process.env.CT_SUMMARY;
if (!NODE_NAMES.length || !LB || !PG) {
  console.error('cluster-client: CT_NODES, CT_LB and CT_PG are required');
  process.exit(2);
}

// An unanswered action is sent again after this long: before the kill
// (answers take milliseconds; this only guards against a lost message on a
// loaded machine) and after it (the game's node may be gone until another
// takes it over: the time to the first answer is measured, so it is short).
const RETRY_BEFORE_MS = 3000;
const RETRY_AFTER_MS = Number(process.env.CT_RETRY_MS || 300);
const retryMs = () => (phase === 'postkill' ? RETRY_AFTER_MS : RETRY_BEFORE_MS);
const SETUP_WAIT_MS = 30000; // every game created and both players seated
const PREKILL_WAIT_MS = 30000; // every game at its ply of the kill
const FINISH_WAIT_MS = 60000; // every game over, from the kill
const FAILOVER_LIMIT_MS = 5000;
const MIN_SPLIT_GAMES = 20; // games whose two players start on different nodes

const T0 = performance.now();
const now = () => performance.now();
const elapsed = () => ((now() - T0) / 1000).toFixed(1) + ' s';
const log = (...a) => console.log(`[${elapsed()}]`, ...a);
const failures = [];
const fail = (msg) => {
  failures.push(msg);
  log('FAIL:', msg);
};

// ---- the games' plans -----------------------------------------------------

// Known mates (chess), each checked by the server: the last move must end the
// game `checkmate` with this result.
const MATES = [
  { name: "fool's mate", moves: ['f2f3', 'e7e5', 'g2g4', 'd8h4'], result: '0-1', kill: 2 },
  { name: "scholar's mate", moves: ['e2e4', 'e7e5', 'f1c4', 'b8c6', 'd1h5', 'g8f6', 'h5f7'], result: '1-0', kill: 3 },
  { name: 'Qh5 mate', moves: ['e2e4', 'g7g5', 'b1c3', 'f7f5', 'd1h5'], result: '1-0', kill: 2 },
  {
    name: "Légal's mate",
    moves: ['e2e4', 'e7e5', 'g1f3', 'd7d6', 'f1c4', 'c8g4', 'b1c3', 'g7g6', 'f3e5', 'g4d1', 'c4f7', 'e8e7', 'c3d5'],
    result: '1-0',
    kill: 6,
  },
  { name: "fool's mate (g4 first)", moves: ['g2g4', 'e7e5', 'f2f4', 'd8h4'], result: '0-1', kill: 2 },
];
const VARIANTS = ['chess', 'alice', 'avalanche'];

// A small deterministic generator (the same game, ply and position always
// pick the same move, so a move sent again after a reconnection is the same).
function pick(list, seed) {
  let h = 2166136261 >>> 0;
  for (const c of seed) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  return list[h % list.length];
}

function planFor(i) {
  const k = (i / 3) | 0;
  switch (i % 3) {
    case 0: {
      const m = MATES[k % MATES.length];
      return { kind: 'mate', variant: 'chess', mate: m, killPly: m.kill, endPly: m.moves.length };
    }
    case 1: {
      // random legal moves, then the side to move at endPly resigns
      const killPly = 3 + (k % 3);
      return { kind: 'resign', variant: VARIANTS[k % 3], killPly, endPly: killPly + 4 + (k % 4) };
    }
    default: {
      // random legal moves, then the side to move at endPly offers a draw, the other accepts
      const killPly = 4 + (k % 2);
      return { kind: 'draw', variant: VARIANTS[(k + 1) % 3], killPly, endPly: killPly + 5 + (k % 3) };
    }
  }
}

// ---- HTTP -----------------------------------------------------------------

async function http(base, method, path, token, body) {
  const headers = { 'X-Echecs-Token': token };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort(), 10000);
  try {
    const res = await fetch(base + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: ctrl.signal,
    });
    const text = await res.text();
    let json = null;
    try {
      json = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, json, text };
  } finally {
    clearTimeout(timer);
  }
}

// ---- PostgreSQL -----------------------------------------------------------

function psql(sql) {
  return new Promise((res, rej) => {
    execFile('psql', [PG, '-X', '-q', '-t', '-A', '-F', '\t', '-v', 'ON_ERROR_STOP=1', '-c', sql], { timeout: 20000 }, (err, out, errOut) => {
      if (err) rej(new Error(`psql failed: ${errOut || err.message}`));
      else res(out.split('\n').filter((l) => l.length).map((l) => l.split('\t')));
    });
  });
}
const sqlList = (ids) => ids.map((id) => `'${id.replace(/[^A-Za-z0-9]/g, '')}'`).join(',');

// ---- players --------------------------------------------------------------

let phase = 'setup'; // setup -> prekill -> postkill -> done
let killAt = null; // performance.now() of the kill
let killWall = 0; // Date.now() just after it
let killedNode = null;
let reconnectTurn = 0;
const stats = { sent: 0, resent: 0, statesAfter: 0, reconnects: 0, viaLb: 0, errorsBefore: {}, errorsAfter: {} };
const RUN = Math.random().toString(36).slice(2, 10);

class Player {
  constructor(game, side, nodeName, viaLb) {
    this.game = game;
    this.side = side; // 'A' or 'B'
    this.token = `clustertest-${RUN}-g${String(game.idx).padStart(2, '0')}-${side.toLowerCase()}`;
    this.nodeName = viaLb ? null : nodeName; // the node the socket is on (null: unknown)
    this.base = viaLb ? LB : NODES[nodeName];
    this.viaLb = viaLb;
    this.firstNode = null;
    this.ws = null;
    this.open = false;
    this.helloed = false;
    this.state = null; // the latest state this player received
    this.color = null;
    this.pending = null; // {key, at}: the action sent and not answered yet
    this.resentAt = -Infinity; // the last time an action was sent again
    this.closing = false;
    this.backoff = 100;
    this.sockets = 0;
  }

  connect() {
    this.sockets++;
    const url = this.base.replace(/^http/, 'ws') + '/ws';
    const ws = new WebSocket(url, { handshakeTimeout: 5000 });
    this.ws = ws;
    ws.on('upgrade', (res) => {
      // The balancer names the node it chose (http-response set-header).
      const via = res.headers['x-echecs-node'];
      if (this.base === LB) this.nodeName = via || null;
      if (this.firstNode === null) this.firstNode = this.nodeName;
    });
    ws.on('open', () => {
      this.open = true;
      this.backoff = 100;
      this.send({ type: 'hello', token: this.token });
      if (this.game.id) this.send({ type: 'join', game: this.game.id });
      this.onOpen?.();
      this.onOpen = null;
      if (this.pending) this.pending.at = 0; // send again at once (after the join's state)
    });
    ws.on('message', (data) => {
      let m;
      try {
        m = JSON.parse(data.toString());
      } catch {
        fail(`game ${this.game.label}: player ${this.side}: a message that is not JSON`);
        return;
      }
      this.onMessage(m);
    });
    ws.on('error', () => {}); // 'close' follows
    ws.on('close', () => {
      if (this.ws !== ws) return;
      this.open = false;
      this.ws = null;
      if (this.closing || this.done()) return;
      stats.reconnects++;
      // A socket of the dead node goes elsewhere: alternately the balancer
      // and a live node chosen directly.
      if (killedNode && this.nodeName === killedNode) {
        const live = NODE_NAMES.filter((n) => n !== killedNode);
        if (reconnectTurn++ % 2 === 0 || !live.length) {
          this.base = LB;
          this.nodeName = null;
          stats.viaLb++;
        } else {
          this.nodeName = live[reconnectTurn % live.length];
          this.base = NODES[this.nodeName];
        }
      }
      const delay = this.backoff;
      this.backoff = Math.min(1000, this.backoff * 2);
      setTimeout(() => {
        if (!this.closing && !this.done()) this.connect();
      }, delay);
    });
  }

  send(msg) {
    if (!this.open) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  done() {
    return this.state?.status === 'over' || phase === 'done';
  }

  onMessage(m) {
    const g = this.game;
    if (m.type === 'error') {
      const bucket = phase === 'postkill' ? stats.errorsAfter : stats.errorsBefore;
      const key = `${m.reason}`;
      bucket[key] = (bucket[key] || 0) + 1;
      // Before the kill an error is a failure, but for the refusal of a
      // second copy of an action that was answered after all.
      const echo = now() - this.resentAt < 10000 && ['ply_mismatch', 'game_over', 'draw_offer_pending', 'no_draw_offer'].includes(m.reason);
      if (phase !== 'postkill' && phase !== 'done' && !echo)
        fail(`game ${g.label}: player ${this.side}: error before the kill: ${m.reason}: ${m.message}`);
      // Whatever it was, ask for the game's state again and decide from it.
      if (g.id && this.open) setTimeout(() => this.send({ type: 'join', game: g.id }), 100);
      return;
    }
    if (m.type !== 'state' || m.game !== g.id) return;
    if (phase === 'postkill') stats.statesAfter++;
    // A socket may see an older state after a newer one (two sockets, two
    // nodes): keep the one with the most moves, or the finished one.
    if (this.state && m.ply < this.state.ply && m.status !== 'over') return;
    this.state = m;
    if (m.you) this.color = m.you;
    g.record(m, this);
    // The pending action is answered when the state moved past it.
    if (this.pending && this.pending.key !== this.actionKey()) this.pending = null;
    // After the kill, a state that does not answer the pending action (the
    // answer to a join, or the new node's first state after its takeover)
    // means that action was lost: send it again now, not at the next period.
    if (this.pending && phase === 'postkill' && now() - this.pending.at >= 50) this.pending.at = -Infinity;
    this.act();
  }

  // What this player should do now, from its latest state, as a key (so that
  // an action is answered when the key changes) and a message.
  nextAction() {
    const s = this.state;
    const g = this.game;
    if (!s || s.status !== 'live' || !this.color) return null;
    const p = s.ply;
    const plan = g.plan;
    if (phase === 'setup' || (phase === 'prekill' && p >= plan.killPly && !g.released)) return null;
    if (plan.kind === 'draw' && s.draw_offer && s.draw_offer !== this.color)
      return { key: `accept@${p}`, msg: { type: 'draw_accept', game: g.id } };
    if (s.turn !== this.color) return null;
    if (plan.kind === 'mate') {
      if (p >= plan.mate.moves.length) return null;
      return { key: `move@${p}`, msg: { type: 'move', game: g.id, move: plan.mate.moves[p], ply: p } };
    }
    if (p >= plan.endPly) {
      if (plan.kind === 'resign') return { key: `resign@${p}`, msg: { type: 'resign', game: g.id } };
      if (!s.draw_offer) return { key: `offer@${p}`, msg: { type: 'draw_offer', game: g.id } };
      return null; // our offer waits for the opponent
    }
    if (!s.legal_moves?.length) return null;
    const move = pick(s.legal_moves, `${g.idx}/${p}/${s.fen}`);
    return { key: `move@${p}`, msg: { type: 'move', game: g.id, move, ply: p } };
  }

  actionKey() {
    return this.nextAction()?.key ?? null;
  }

  act() {
    const a = this.nextAction();
    if (!a) {
      this.pending = null;
      return;
    }
    if (this.pending && this.pending.key === a.key) {
      if (now() - this.pending.at < retryMs()) return;
      if (!this.send(a.msg)) return;
      stats.resent++;
      this.pending.at = this.resentAt = now();
      return;
    }
    this.pending = { key: a.key, at: now() };
    if (this.send(a.msg)) stats.sent++;
    else this.pending.at = 0;
  }

  close() {
    this.closing = true;
    this.ws?.terminate();
  }
}

class Game {
  constructor(idx) {
    this.idx = idx;
    this.plan = planFor(idx);
    // A's HTTP and socket on node X, B's on node Y != X (when there are
    // several); every fourth game, A's socket through the balancer.
    const n = NODE_NAMES.length;
    this.nodeA = NODE_NAMES[idx % n];
    this.nodeB = NODE_NAMES[(idx + 1) % n];
    this.httpA = idx % 3 === 2 ? LB : NODES[this.nodeA];
    this.httpB = idx % 3 === 1 ? LB : NODES[this.nodeB];
    this.A = new Player(this, 'A', this.nodeA, idx % 4 === 3);
    this.B = new Player(this, 'B', this.nodeB, false);
    this.id = null;
    this.label = `#${idx}`;
    this.acked = new Map(); // ply -> {uci, at}
    this.conflicts = [];
    this.maxPly = 0;
    this.plyAtKill = null;
    this.endedBeforeKill = false;
    this.released = false; // plays on before the kill (the kill finds its moves in flight)
    this.firstAfterKill = null; // ms from the kill
    this.final = null;
  }

  record(s, player) {
    const t = now();
    s.moves.forEach((mv, ply) => {
      const known = this.acked.get(ply);
      if (!known) {
        this.acked.set(ply, { uci: mv.uci, at: t });
        if (killAt !== null && this.plyAtKill !== null && ply >= this.plyAtKill && this.firstAfterKill === null)
          this.firstAfterKill = t - killAt;
      } else if (known.uci !== mv.uci) {
        this.conflicts.push({ ply, was: known.uci, now: mv.uci });
        fail(`game ${this.label}: ply ${ply} acknowledged as ${known.uci}, later shown as ${mv.uci} (player ${player.side})`);
      }
    });
    this.maxPly = Math.max(this.maxPly, s.moves.length);
    if (s.status === 'over' && !this.final) this.final = s;
  }

  over() {
    return this.A.state?.status === 'over' && this.B.state?.status === 'over';
  }

  where() {
    const p = (pl) => `${pl.side} on ${pl.nodeName ?? (pl.base === LB ? 'lb' : '?')}${pl.open ? '' : ' (disconnected)'} ply ${pl.state?.ply ?? '-'} ${pl.state?.status ?? ''}`;
    return `game ${this.label} ${this.id} (${this.plan.kind} ${this.plan.variant}): ${p(this.A)}, ${p(this.B)}`;
  }

  async setup() {
    // A's socket first (a seek lives while its creator is connected).
    await new Promise((res) => {
      this.A.onOpen = res;
      this.A.connect();
    });
    const seek = await http(this.httpA, 'POST', '/api/seeks', this.A.token, {
      variant: this.plan.variant,
      time: { kind: 'realtime', minutes: 10, increment: 0 },
      color: 'random',
      nickname: `A${this.idx}`,
    });
    if (seek.status !== 201 || !seek.json?.seek?.id)
      throw new Error(`game ${this.label}: POST /api/seeks on ${this.httpA}: ${seek.status} ${seek.text.slice(0, 200)}`);
    const acc = await http(this.httpB, 'POST', `/api/seeks/${seek.json.seek.id}/accept`, this.B.token, { nickname: `B${this.idx}` });
    if (acc.status !== 201 || !acc.json?.game)
      throw new Error(`game ${this.label}: accepting seek ${seek.json.seek.id} (created on ${this.httpA}) on ${this.httpB}: ${acc.status} ${acc.text.slice(0, 200)}`);
    this.id = acc.json.game;
    this.label = `#${this.idx} ${this.id}`;
    this.A.send({ type: 'join', game: this.id });
    // B's socket on another node than A's, wherever the balancer put A.
    if (NODE_NAMES.length > 1 && this.A.firstNode === this.B.nodeName) {
      this.B.nodeName = NODE_NAMES.find((n) => n !== this.A.firstNode);
      this.B.base = NODES[this.B.nodeName];
    }
    this.B.connect();
  }
}

// ---- waits ------------------------------------------------------------------

async function waitFor(what, ms, cond, detail) {
  const until = Math.min(now() + ms, T0 + BUDGET_MS);
  while (!cond()) {
    if (now() >= until) {
      const d = detail ? detail() : '';
      throw new Error(`${what}: not within ${Math.round(ms / 1000)} s${d ? '\n  ' + d : ''}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

// ---- the run ----------------------------------------------------------------

const games = Array.from({ length: GAMES }, (_, i) => new Game(i));
const players = games.flatMap((g) => [g.A, g.B]);
const retryTimer = setInterval(() => {
  for (const p of players) if (p.pending && p.open) p.act();
}, 50);

let finishedPlaying = false;
try {
  log(`${GAMES} games on ${NODE_NAMES.length} node(s) (${NODE_NAMES.join(', ')}), balancer ${LB}, kill: ${KILL ? 'yes' : 'no'}`);
  // The setup: a few games at a time, each on its own pair of nodes.
  const setupUntil = now() + SETUP_WAIT_MS;
  for (let i = 0; i < games.length; i += 6) {
    await Promise.race([
      Promise.all(games.slice(i, i + 6).map((g) => g.setup())),
      new Promise((_, rej) => setTimeout(() => rej(new Error(`creating games ${i}..${i + 5}: not within the setup's ${SETUP_WAIT_MS / 1000} s`)), Math.max(0, setupUntil - now()))),
    ]);
  }
  await waitFor('every player seated (a state with `you` on both sockets)', SETUP_WAIT_MS, () => players.every((p) => p.color), () =>
    games.filter((g) => !g.A.color || !g.B.color).map((g) => g.where()).join('\n  '));
  for (const g of games) {
    if (g.A.color === g.B.color) fail(`game ${g.label}: both players hold ${g.A.color}`);
  }
  const split = games.filter((g) => g.A.firstNode && g.B.firstNode && g.A.firstNode !== g.B.firstNode).length;
  log(`${games.length} games created; ${split} with their two players on different nodes; ${games.filter((g) => g.A.viaLb).length} with a player through the balancer (which named the node of ${games.filter((g) => g.A.viaLb && g.A.firstNode).length})`);
  if (NODE_NAMES.length > 1 && split < MIN_SPLIT_GAMES) fail(`only ${split} games have their players on different nodes (at least ${MIN_SPLIT_GAMES} wanted)`);

  // Before the kill: every game to its ply of the kill.
  phase = 'prekill';
  for (const p of players) p.act();
  const atKill = (g) => g.over() || (g.A.state?.ply === g.plan.killPly && g.B.state?.ply === g.plan.killPly);
  await waitFor('every game at its ply of the kill (both players seeing it)', PREKILL_WAIT_MS, () => games.every(atKill),
    () => games.filter((g) => !atKill(g)).map((g) => `${g.where()} (kill at ply ${g.plan.killPly})`).join('\n  '));
  for (const g of games) {
    g.plyAtKill = g.maxPly;
    g.endedBeforeKill = g.over();
  }
  log(`every game at its ply of the kill: ${games.reduce((n, g) => n + g.maxPly, 0)} moves acknowledged so far`);

  let killedGames = [];
  if (KILL) {
    const ids = sqlList(games.map((g) => g.id));
    const leases = await psql(
      `SELECT l.game_id, l.node FROM game_leases l JOIN games g ON g.id = l.game_id ` +
        `WHERE g.status = 'live' AND l.expires_at > (extract(epoch from now()) * 1000)::bigint AND g.id IN (${ids})`,
    );
    const byNode = new Map();
    for (const [game, node] of leases) byNode.set(node, [...(byNode.get(node) || []), game]);
    log(`live leases: ${[...byNode].map(([n, gs]) => `${n} ${gs.length}`).join(', ') || 'none'}`);
    const live = games.filter((g) => !g.endedBeforeKill).length;
    if (leases.length !== live) fail(`${leases.length} of the ${live} live games have a live lease`);
    // Of the nodes running the most games, the lobby's, so that the kill
    // takes the lobby over too (the leader spreads the games evenly).
    const [[lobby] = []] = await psql(`SELECT node FROM game_leases WHERE game_id = '~lobby'`);
    const [victim, victimGames] =
      [...byNode].sort((a, b) => b[1].length - a[1].length || (b[0] === lobby) - (a[0] === lobby))[0] || [];
    if (!victim) throw new Error('no node holds a live game: nothing to kill');
    const short = victim.split('.')[0];
    const pid = Number(PIDS[short]);
    if (!pid) throw new Error(`the node running the most live games is '${victim}': no process of mine is named '${short}' (${Object.keys(PIDS).join(', ')})`);
    killedGames = victimGames;
    // Half the games play on, so that the kill comes with their moves in
    // flight (sent, perhaps stored, not yet answered); the other half wait,
    // so that their first answer after the kill is the new node's.
    const busy = games.filter((g) => g.idx % 2 === 1 && !g.over());
    const before = busy.reduce((n, g) => n + g.maxPly, 0);
    for (const g of busy) g.released = true;
    for (const g of busy) for (const p of [g.A, g.B]) p.act();
    await waitFor(`${busy.length} games playing on before the kill: 12 more moves answered`, 10000,
      () => busy.reduce((n, g) => n + g.maxPly, 0) >= before + 12 || busy.every((g) => g.over()));
    const inFlight = players.filter((p) => p.pending && p.pending.key.startsWith('move@')).length;
    for (const g of games) {
      g.plyAtKill = g.maxPly;
      g.endedBeforeKill = g.over();
    }
    killedNode = short;
    killAt = now();
    process.kill(pid, 'SIGKILL');
    killWall = Date.now();
    log(`SIGKILL ${short} (${victim}, process ${pid}), which runs ${victimGames.length} live games${victim === lobby ? " and the lobby" : ""}; ${inFlight} moves in flight`);
  }
  phase = 'postkill';
  for (const p of players) p.act();

  const finishUntil = FINISH_WAIT_MS;
  await waitFor('every game over (both players seeing it)', finishUntil, () => games.every((g) => g.over()), () =>
    games.filter((g) => !g.over()).map((g) => g.where()).join('\n  '));
  log(`every game over`);
  finishedPlaying = true;

  if (KILL && killedGames.length) {
    // Every game of the dead node was taken over by another, but for those
    // it ended itself before it died (the moves in flight at the kill).
    const after = await psql(
      `SELECT l.game_id, l.node, g.status, g.ended_at FROM game_leases l JOIN games g ON g.id = l.game_id WHERE l.game_id IN (${sqlList(killedGames)})`,
    );
    const kept = after.filter(([, node]) => node.split('.')[0] === killedNode);
    const late = kept.filter(([, , status, ended]) => status !== 'over' || Number(ended) > killWall + 100);
    if (late.length)
      fail(`${late.length} games of the dead node still hold its lease though they ended after the kill or not at all: ` +
        late.map(([g, , st, e]) => `${g} (${st}, ended ${Number(e) - killWall} ms after the kill)`).join(', '));
    const takers = [...new Set(after.filter(([, node]) => node.split('.')[0] !== killedNode).map(([, n]) => n))];
    log(`of the ${killedGames.length} games of ${killedNode}, ${killedGames.length - kept.length} were taken over (by ${takers.join(', ') || 'none'}), ${kept.length} had ended before the kill`);
  }
} catch (e) {
  fail(e.message);
}
phase = 'done';
clearInterval(retryTimer);
for (const p of players) p.close();

// ---- the database check -----------------------------------------------------

let M = 0;
let L = 0;
let P = 0;
const created = games.filter((g) => g.id);
try {
  const ids = sqlList(created.map((g) => g.id));
  const rows = created.length ? await psql(`SELECT game_id, ply, uci FROM moves WHERE game_id IN (${ids}) ORDER BY game_id, ply`) : [];
  const dbMoves = new Map(); // game -> Map(ply -> uci)
  for (const [game, ply, uci] of rows) {
    if (!dbMoves.has(game)) dbMoves.set(game, new Map());
    dbMoves.get(game).set(Number(ply), uci);
  }
  const gameRows = created.length ? await psql(`SELECT id, status, result, termination FROM games WHERE id IN (${ids})`) : [];
  const dbGames = new Map(gameRows.map(([id, status, result, termination]) => [id, { status, result, termination }]));
  for (const g of created) {
    const stored = dbMoves.get(g.id) || new Map();
    for (const [ply, { uci }] of g.acked) {
      M++;
      if (stored.get(ply) !== uci) {
        L++;
        fail(`game ${g.label}: acknowledged move ${ply} ${uci} is ${stored.has(ply) ? 'stored as ' + stored.get(ply) : 'not in the database'}`);
      }
    }
    for (const c of g.conflicts) {
      M++;
      L++; // a move shown once and then replaced: it was acknowledged and lost
    }
    if (!finishedPlaying && !g.final) continue;
    const f = g.final;
    if (!f) {
      fail(`game ${g.label}: no final state`);
      continue;
    }
    const ucis = f.moves.map((m) => m.uci);
    const dbUcis = [...stored.keys()].sort((a, b) => a - b).map((k) => stored.get(k));
    if (ucis.join(' ') !== dbUcis.join(' '))
      fail(`game ${g.label}: the final state's moves (${ucis.join(' ')}) are not the database's (${dbUcis.join(' ')})`);
    const row = dbGames.get(g.id);
    const seen = { status: f.status, result: f.result, termination: f.termination ?? '' };
    if (!row) fail(`game ${g.label}: not in table games`);
    else if (row.status !== seen.status || row.result !== seen.result || row.termination !== seen.termination)
      fail(`game ${g.label}: the players saw ${JSON.stringify(seen)}, the database holds ${JSON.stringify(row)}`);
    // The plan's end.
    const plan = g.plan;
    const want =
      plan.kind === 'mate'
        ? { result: plan.mate.result, termination: 'checkmate' }
        : plan.kind === 'resign'
          ? { result: plan.endPly % 2 === 0 ? '0-1' : '1-0', termination: 'resignation' }
          : { result: '1/2-1/2', termination: 'agreement' };
    const natural = plan.kind !== 'mate' && f.ply < plan.endPly; // a random game that ended by itself
    if (natural) log(`game ${g.label}: ended by itself at ply ${f.ply} (${f.termination}, ${f.result}) before its planned ${plan.kind}`);
    else if (f.result !== want.result || f.termination !== want.termination)
      fail(`game ${g.label} (${plan.kind === 'mate' ? plan.mate.name : plan.kind}): ended ${f.result} ${f.termination}, expected ${want.result} ${want.termination}`);
  }
} catch (e) {
  fail(`database check: ${e.message}`);
}

// ---- failover ---------------------------------------------------------------

if (KILL && killAt !== null) {
  const moved = games.filter((g) => g.firstAfterKill !== null);
  // A game that waited at the kill has moves left: it must move again. A
  // game that played on may have ended with the action in flight at the
  // kill (a resignation, the last move): it need not.
  const stuck = games.filter((g) => g.id && g.firstAfterKill === null && !g.endedBeforeKill && (!g.released || !g.over()));
  if (stuck.length) {
    P = Math.round(now() - killAt);
    fail(`${stuck.length} games did not move after the kill (${stuck.map((g) => g.label).join(', ')}): failover at least ${P} ms`);
  } else P = Math.round(Math.max(0, ...moved.map((g) => g.firstAfterKill)));
  const times = moved.map((g) => g.firstAfterKill).sort((a, b) => a - b);
  if (times.length)
    log(`first move after the kill, ${times.length} games: median ${Math.round(times[times.length >> 1])} ms, max ${Math.round(times[times.length - 1])} ms`);
  if (P >= FAILOVER_LIMIT_MS) fail(`failover took ${P} ms (limit ${FAILOVER_LIMIT_MS} ms)`);
} else if (KILL) fail('no node was killed');
const fmt = (o) => Object.entries(o).map(([k, v]) => `${k} ${v}`).join(', ') || 'none';
log(`actions sent ${stats.sent}, sent again ${stats.resent}, states received after the kill ${stats.statesAfter}, reconnections ${stats.reconnects} (${stats.viaLb} through the balancer); errors after the kill: ${fmt(stats.errorsAfter)}`);
if (L > 0) fail(`${L} acknowledged moves lost`);

const line = `cluster: ${created.length} games, ${M} moves acknowledged, ${L} lost, failover ${P} ms`;
if (failures.length) log(`${failures.length} failure(s)`);
// The script prints the line last, after stopping everything.
if (SUMMARY) writeFileSync(SUMMARY, line + '\n');
else console.log(line);
process.exit(failures.length ? 1 : 0);
