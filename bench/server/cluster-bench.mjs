// Cluster benchmark's load (not a test; docs/PERFORMANCE.md, "Several nodes:
// cost per move and the plan for internet scale"). bench/server/cluster-bench.sh
// starts the servers, PostgreSQL and Redis and runs this once per
// configuration.
//
// G games at once, each between two browsers (two tokens, two WebSockets),
// created by a seek (POST /api/seeks, white, no clock) and its acceptance
// (POST /api/seeks/<id>/accept). Each side plays a fixed legal game: at every
// ply the mover takes legal_moves[(31*game + 17*ply) % n] from the `state`
// it received (the same choices, so the same games, in every configuration),
// and sends it when the state of the previous move arrives (closed loop), up
// to --plies plies or the game's end.
//
// Measured around the play (and, for the background, over --idle seconds
// with every socket open and no move): the CPU time (utime+stime from
// /proc/PID/stat) of each echecs process, of redis-server and of the
// PostgreSQL cluster (the postmaster, its children and what its reaped
// children used); Redis commands, PUBLISH calls and bytes in and out (INFO);
// PostgreSQL transactions, tuples written and WAL bytes of the database.
// PostgreSQL's statistics reach pg_stat_database up to a second late, so its
// counters are read --pg-settle seconds after the play (that background is
// in the figure; the idle rate says how much).
//
//   node cluster-bench.mjs --white-port P --black-port P --seek-port P --accept-port P
//        [--games 40] [--plies 40] [--idle 5] [--label NAME]
//        [--echecs-pids a,b,c] [--redis-pid N --redis-port P]
//        [--pg-pid N --pg-port P --db NAME]
//   node cluster-bench.mjs --summary results.jsonl     (medians of the runs)
//
// `ws` is looked up from $ECHECS_WS_DIR, the current directory, and the
// repository's web/ (npm ci there installs it).
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

function arg(name, def) {
  const i = process.argv.indexOf('--' + name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : def;
}

// ---------------------------------------------------------------------------
// Summary mode: medians and spreads of the runs, per configuration.
if (arg('summary')) {
  const rows = readFileSync(arg('summary'), 'utf8').split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
  const by = new Map();
  for (const r of rows) (by.get(r.label) || by.set(r.label, []).get(r.label)).push(r);
  const med = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const fmt = (x) => (Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 10 ? x.toFixed(1) : x.toFixed(2));
  const cols = [
    ['runs', (r) => 1],
    ['moves', (r) => r.moves],
    ['moves/s', (r) => r.moves_per_s],
    ['rtt p50 ms', (r) => r.rtt_p50_ms],
    ['rtt p99 ms', (r) => r.rtt_p99_ms],
    ['echecs CPU ms/1000 moves (all nodes)', (r) => r.per1000.echecs_cpu_ms],
    ['per node', (r) => r.per1000.echecs_cpu_ms_each.map(fmt).join(' / ')],
    ['redis CPU ms/1000', (r) => r.per1000.redis_cpu_ms],
    ['postgres CPU ms/1000', (r) => r.per1000.pg_cpu_ms],
    ['load generator CPU ms/1000', (r) => r.per1000.client_cpu_ms],
    ['echecs CPU ms/1000 moves less the idle rate', (r) => r.net_per_move.echecs_cpu_ms * 1000],
    ['postgres CPU ms/1000 less the idle rate', (r) => r.net_per_move.pg_cpu_ms * 1000],
    ['PUBLISH/move', (r) => r.per_move.publish],
    ['Redis commands/move', (r) => r.per_move.redis_commands],
    ['bytes into Redis/move', (r) => r.per_move.redis_in_bytes],
    ['bytes out of Redis/move', (r) => r.per_move.redis_out_bytes],
    ['PG xacts/move', (r) => r.per_move.pg_xacts],
    ['PG xacts/move less the idle rate', (r) => r.net_per_move.pg_xacts],
    ['PG tuples written/move', (r) => r.per_move.pg_tuples_written],
    ['WAL bytes/move', (r) => r.per_move.pg_wal_bytes],
    ['PostgreSQL deadlocks during the run', (r) => String(r.pg_deadlocks ?? '?')],
    ['idle: echecs CPU ms/s (all nodes)', (r) => r.idle_per_s.echecs_cpu_ms],
    ['idle: PUBLISH/s', (r) => r.idle_per_s.publish],
    ['idle: PG xacts/s', (r) => r.idle_per_s.pg_xacts],
    ['idle: PG tuples written/s', (r) => r.idle_per_s.pg_tuples_written],
    ['idle: WAL bytes/s', (r) => r.idle_per_s.pg_wal_bytes],
    ['idle: postgres CPU ms/s', (r) => r.idle_per_s.pg_cpu_ms],
    ['idle: redis CPU ms/s', (r) => r.idle_per_s.redis_cpu_ms],
    ['load average at the end', (r) => Number(String(r.loadavg || 'NaN').split(' ')[0])],
  ];
  const labels = [...by.keys()];
  console.log('| figure | ' + labels.join(' | ') + ' |');
  console.log('|---|' + labels.map(() => '---|').join(''));
  for (const [name, f] of cols) {
    const cells = labels.map((l) => {
      const rs = by.get(l);
      if (name === 'runs') return String(rs.length);
      const v = rs.map(f);
      if (typeof v[0] === 'string') return v.join('; ');
      return `**${fmt(med(v))}** (${fmt(Math.min(...v))}–${fmt(Math.max(...v))})`;
    });
    console.log(`| ${name} | ${cells.join(' | ')} |`);
  }
  process.exit(0);
}

// ---------------------------------------------------------------------------
// The load.

function loadWs() {
  const dirs = [process.env.ECHECS_WS_DIR, process.cwd(), path.join(here, '../../web')].filter(Boolean);
  for (const d of dirs) {
    try {
      return createRequire(path.join(d, 'noop.js'))('ws');
    } catch {}
  }
  throw new Error('the npm package ws was not found (set ECHECS_WS_DIR to a directory whose node_modules has it)');
}
const WebSocket = loadWs();

const G = Number(arg('games', 40));
const PLIES = Number(arg('plies', 40));
const IDLE_S = Number(arg('idle', 5));
const PG_SETTLE_S = Number(arg('pg-settle', 1.5));
const TIMEOUT_MS = Number(arg('timeout', 180)) * 1000;
const LABEL = arg('label', 'run');
const whitePort = Number(arg('white-port', 8080));
const blackPort = Number(arg('black-port', whitePort));
const seekPort = Number(arg('seek-port', whitePort));
const acceptPort = Number(arg('accept-port', blackPort));
const echecsPids = (arg('echecs-pids', '') || '').split(',').filter(Boolean).map(Number);
const redisPid = Number(arg('redis-pid', 0));
const redisPort = Number(arg('redis-port', 0));
const pgPid = Number(arg('pg-pid', 0));
const pgPort = Number(arg('pg-port', 0));
const db = arg('db', '');

const started = Date.now();
const deadline = started + TIMEOUT_MS;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const log = (...a) => console.error(`[${((Date.now() - started) / 1000).toFixed(1)}s ${LABEL}]`, ...a);

// --- counters -------------------------------------------------------------
const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

function stat(pid) {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    // f[0] is field 3 (state): field n is f[n-3]
    return { ppid: Number(f[1]), own: Number(f[11]) + Number(f[12]), reaped: Number(f[13]) + Number(f[14]) };
  } catch {
    return null;
  }
}
const ticksToMs = (t) => (t * 1000) / CLK_TCK;

function cpuMs(pid) {
  const s = stat(pid);
  return s ? ticksToMs(s.own) : NaN;
}

function pgCpuMs() {
  if (!pgPid) return 0;
  const m = stat(pgPid);
  if (!m) return NaN;
  let t = m.own + m.reaped;
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    const s = stat(Number(d));
    if (s && s.ppid === pgPid) t += s.own + s.reaped;
  }
  return ticksToMs(t);
}

function redisInfo() {
  if (!redisPort) return { commands: 0, publish: 0, in: 0, out: 0 };
  const t = execFileSync('redis-cli', ['-h', '127.0.0.1', '-p', String(redisPort), 'info', 'stats', 'commandstats'], { timeout: 5000 }).toString();
  const num = (re) => {
    const m = t.match(re);
    return m ? Number(m[1]) : 0;
  };
  return {
    commands: num(/total_commands_processed:(\d+)/),
    publish: num(/cmdstat_publish:calls=(\d+)/),
    in: num(/total_net_input_bytes:(\d+)/),
    out: num(/total_net_output_bytes:(\d+)/),
  };
}

function lsnToNumber(lsn) {
  const [hi, lo] = lsn.split('/');
  return parseInt(hi, 16) * 2 ** 32 + parseInt(lo, 16);
}

function pgInfo() {
  if (!pgPort || !db) return { xacts: 0, written: 0, wal: 0 };
  const q =
    `SELECT xact_commit + xact_rollback, tup_inserted + tup_updated + tup_deleted, pg_current_wal_lsn() ` +
    `FROM pg_stat_database WHERE datname = '${db}'`;
  const out = execFileSync('psql', ['-h', '127.0.0.1', '-p', String(pgPort), '-U', 'postgres', '-X', '-tAc', q, 'postgres'], {
    timeout: 10000,
  })
    .toString()
    .trim();
  const [x, w, lsn] = out.split('|');
  return { xacts: Number(x), written: Number(w), wal: lsnToNumber(lsn) };
}

function cpuSnapshot() {
  return {
    t: performance.now(),
    echecs: echecsPids.map(cpuMs),
    redis: redisPid ? cpuMs(redisPid) : 0,
    pg: pgCpuMs(),
    client: (() => {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1000;
    })(),
    redisInfo: redisInfo(),
  };
}

function diff(a, b, pa, pb) {
  return {
    seconds: (b.t - a.t) / 1000,
    echecs_each: b.echecs.map((x, i) => x - a.echecs[i]),
    redis: b.redis - a.redis,
    pg: b.pg - a.pg,
    client: b.client - a.client,
    commands: b.redisInfo.commands - a.redisInfo.commands - 1, // less the INFO call (counted once it has run)
    publish: b.redisInfo.publish - a.redisInfo.publish,
    redis_in: b.redisInfo.in - a.redisInfo.in,
    redis_out: b.redisInfo.out - a.redisInfo.out,
    pg_xacts: pb.xacts - pa.xacts - 1, // less the snapshot's own query
    pg_written: pb.written - pa.written,
    pg_wal: pb.wal - pa.wal,
  };
}

// --- clients --------------------------------------------------------------
function token(i, side) {
  return `cb${side}${String(i).padStart(6, '0')}${Math.random().toString(36).slice(2, 12)}`.padEnd(24, 'x');
}

async function http(port, method, p, tok, body) {
  for (let attempt = 0; ; attempt++) {
    const r = await fetch(`http://127.0.0.1:${port}${p}`, {
      method,
      headers: { 'content-type': 'application/json', 'x-echecs-token': tok },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(15000),
    });
    const j = await r.json().catch(() => null);
    if (r.status < 300) return j;
    // a node that does not know the lobby's node yet answers node_unavailable: try again, a few times
    if (attempt < 20 && r.status === 503 && Date.now() < deadline) {
      await sleep(250);
      continue;
    }
    throw new Error(`${method} ${p} on ${port}: ${r.status} ${JSON.stringify(j)}`);
  }
}

function socket(port, tok, onMessage) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`);
    const t = setTimeout(() => reject(new Error(`socket to ${port} did not open in 10 s`)), 10000);
    ws.on('message', (d) => onMessage(JSON.parse(d)));
    ws.on('error', (e) => reject(e));
    ws.on('open', () => {
      clearTimeout(t);
      ws.send(JSON.stringify({ type: 'hello', token: tok }));
      resolve(ws);
    });
  });
}

const errors = [];
const rtts = [];
let moves = 0;
let playing = false;
let onAllDone = null;
let gamesDone = 0;

class Side {
  constructor(game, colour, port) {
    this.game = game;
    this.colour = colour;
    this.port = port;
    this.tok = token(game.index, colour[0]);
    this.sentPly = -1;
    this.sentAt = 0;
    this.lastState = null;
    this.waiters = [];
  }
  async open() {
    this.ws = await socket(this.port, this.tok, (m) => this.onMessage(m));
  }
  send(m) {
    this.ws.send(JSON.stringify(m));
  }
  onMessage(m) {
    if (m.type === 'error') {
      errors.push(`${this.colour} of game ${this.game.index}: ${JSON.stringify(m)}`);
      return;
    }
    if (m.type !== 'state' || m.game !== this.game.id) return;
    if (this.lastState && m.ply < this.lastState.ply) return;
    this.lastState = m;
    for (const w of this.waiters.splice(0)) w();
    if (!playing) return;
    if (this.sentPly >= 0 && m.ply === this.sentPly + 1 && this.sentAt) {
      rtts.push(performance.now() - this.sentAt);
      this.sentAt = 0;
      moves++;
    }
    this.maybeMove();
  }
  maybeMove() {
    const m = this.lastState;
    if (!m || this.game.done) return;
    if (m.status !== 'live' || m.ply >= PLIES) {
      // over when both sides have seen the last state (the mover's is its acknowledgement)
      this.seenEnd = true;
      if (this.game.white.seenEnd && this.game.black.seenEnd) this.game.finish();
      return;
    }
    if (m.turn !== this.colour || this.sentPly >= m.ply) return;
    const legal = m.legal_moves || [];
    if (!legal.length) return;
    const mv = legal[(31 * this.game.index + 17 * m.ply) % legal.length];
    this.sentPly = m.ply;
    this.sentAt = performance.now();
    this.send({ type: 'move', game: this.game.id, move: mv, ply: m.ply });
  }
  waitState(pred, ms = 15000) {
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`${this.colour} of game ${this.game.index}: no state in ${ms} ms`)), ms);
      const check = () => {
        if (this.lastState && pred(this.lastState)) {
          clearTimeout(t);
          resolve(this.lastState);
        } else this.waiters.push(check);
      };
      check();
    });
  }
}

class Game {
  constructor(index) {
    this.index = index;
    this.id = null;
    this.done = false;
    this.white = new Side(this, 'white', whitePort);
    this.black = new Side(this, 'black', blackPort);
  }
  finish() {
    if (this.done) return;
    this.done = true;
    this.finalPly = this.white.lastState?.ply ?? 0;
    if (++gamesDone === G && onAllDone) onAllDone();
  }
}

const games = Array.from({ length: G }, (_, i) => new Game(i));

async function inBatches(items, n, f) {
  for (let i = 0; i < items.length; i += n) await Promise.all(items.slice(i, i + n).map(f));
}

function pct(xs, p) {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

async function main() {
  log(`${G} games, ${PLIES} plies; white on ${whitePort}, black on ${blackPort}, seeks on ${seekPort}, accepts on ${acceptPort}`);
  await inBatches(games, 20, async (g) => {
    await g.white.open();
    await g.black.open();
  });
  await sleep(300);
  await inBatches(games, 10, async (g) => {
    const s = await http(seekPort, 'POST', '/api/seeks', g.white.tok, {
      variant: 'chess',
      time: { kind: 'unlimited' },
      color: 'white',
      nickname: `W${g.index}`,
    });
    const a = await http(acceptPort, 'POST', `/api/seeks/${s.seek.id}/accept`, g.black.tok, { nickname: `B${g.index}` });
    g.id = a.game;
  });
  await inBatches(games, 20, async (g) => {
    g.white.send({ type: 'join', game: g.id });
    g.black.send({ type: 'join', game: g.id });
    await g.white.waitState((m) => m.you === 'white');
    await g.black.waitState((m) => m.you === 'black');
  });
  log(`${G} games created and joined`);

  // The background: every socket open, no move.
  await sleep(PG_SETTLE_S * 1000);
  const i0 = cpuSnapshot();
  const ip0 = pgInfo();
  await sleep(IDLE_S * 1000);
  const i1 = cpuSnapshot();
  const ip1 = pgInfo();
  const idle = diff(i0, i1, ip0, ip1);

  // The play.
  const p0 = cpuSnapshot();
  const pp0 = pgInfo();
  const t0 = performance.now();
  playing = true;
  const done = new Promise((resolve) => (onAllDone = resolve));
  for (const g of games) g.white.maybeMove();
  // a server that exits (or stalls the play past the deadline) ends the run
  let died = 0;
  const watch = setInterval(() => {
    for (const pid of echecsPids)
      if (!stat(pid) && !died) {
        died = pid;
        errors.push(`echecs process ${pid} exited during the play (${moves} moves done)`);
        onAllDone();
      }
  }, 200);
  const timedOut = await Promise.race([done.then(() => died !== 0), sleep(Math.max(1000, deadline - Date.now())).then(() => true)]);
  clearInterval(watch);
  const wall = (performance.now() - t0) / 1000;
  const p1 = cpuSnapshot();
  await sleep(PG_SETTLE_S * 1000);
  const pp1 = pgInfo();
  const play = diff(p0, p1, pp0, pp1);
  if (timedOut && !died) errors.push(`timed out: ${gamesDone} of ${G} games done, ${moves} moves`);

  const per = (x, n) => (n ? x / n : NaN);
  const sum = (xs) => xs.reduce((a, b) => a + b, 0);
  const result = {
    label: LABEL,
    games: G,
    plies: PLIES,
    games_done: gamesDone,
    moves,
    seconds: wall,
    moves_per_s: moves / wall,
    rtt_p50_ms: pct(rtts, 50),
    rtt_p99_ms: pct(rtts, 99),
    rtt_max_ms: pct(rtts, 100),
    per1000: {
      echecs_cpu_ms: per(play.echecs_each.reduce((a, b) => a + b, 0), moves) * 1000,
      echecs_cpu_ms_each: play.echecs_each.map((x) => per(x, moves) * 1000),
      redis_cpu_ms: per(play.redis, moves) * 1000,
      pg_cpu_ms: per(play.pg, moves) * 1000,
      client_cpu_ms: per(play.client, moves) * 1000,
    },
    per_move: {
      publish: per(play.publish, moves),
      redis_commands: per(play.commands, moves),
      redis_in_bytes: per(play.redis_in, moves),
      redis_out_bytes: per(play.redis_out, moves),
      pg_xacts: per(play.pg_xacts, moves),
      pg_tuples_written: per(play.pg_written, moves),
      pg_wal_bytes: per(play.pg_wal, moves),
    },
    // the same, less the background measured while idle (lease renewals, the
    // nodes' "alive" messages, pings) over the same time: what the moves cost
    net_per_move: {
      echecs_cpu_ms: per(sum(play.echecs_each) - (sum(idle.echecs_each) / idle.seconds) * play.seconds, moves),
      pg_cpu_ms: per(play.pg - (idle.pg / idle.seconds) * play.seconds, moves),
      publish: per(play.publish - (idle.publish / idle.seconds) * play.seconds, moves),
      pg_xacts: per(play.pg_xacts - (idle.pg_xacts / idle.seconds) * (play.seconds + PG_SETTLE_S), moves),
    },
    idle_per_s: {
      seconds: idle.seconds,
      echecs_cpu_ms: idle.echecs_each.reduce((a, b) => a + b, 0) / idle.seconds,
      redis_cpu_ms: idle.redis / idle.seconds,
      pg_cpu_ms: idle.pg / idle.seconds,
      publish: idle.publish / idle.seconds,
      pg_xacts: idle.pg_xacts / idle.seconds,
      pg_tuples_written: idle.pg_written / idle.seconds,
      pg_wal_bytes: idle.pg_wal / idle.seconds,
    },
    raw: { play, idle },
    errors: errors.slice(0, 20),
    error_count: errors.length,
  };
  log(
    `${moves} moves in ${wall.toFixed(2)} s (${result.moves_per_s.toFixed(0)}/s), round trip p50 ${result.rtt_p50_ms.toFixed(2)} ms ` +
      `p99 ${result.rtt_p99_ms.toFixed(2)} ms; echecs CPU ${result.per1000.echecs_cpu_ms.toFixed(0)} ms/1000 moves ` +
      `(${result.per1000.echecs_cpu_ms_each.map((x) => x.toFixed(0)).join(' / ')}), redis ${result.per1000.redis_cpu_ms.toFixed(0)}, ` +
      `postgres ${result.per1000.pg_cpu_ms.toFixed(0)}; ${result.per_move.publish.toFixed(2)} PUBLISH/move, ` +
      `${result.per_move.redis_in_bytes.toFixed(0)} B into Redis/move, ${result.per_move.pg_xacts.toFixed(2)} PG xacts/move; errors ${errors.length}`,
  );
  for (const e of errors.slice(0, 5)) log('error:', e);
  console.log(JSON.stringify(result));
  for (const g of games) {
    g.white.ws.terminate();
    g.black.ws.terminate();
  }
  process.exit(timedOut || errors.length ? 1 : 0);
}

// ---------------------------------------------------------------------------
// Sockets mode (--sockets N --port P): N browsers that only say hello, on one
// node; the memory (VmRSS) and the CPU of every echecs process, and the
// Redis messages, for these connected clients that play nothing. With several
// nodes, each hello is also heard by the lobby's node (seeks, pools): it holds
// a stand-in for every socket of the site.
function rssKb(pid) {
  try {
    const m = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/);
    return m ? Number(m[1]) : NaN;
  } catch {
    return NaN;
  }
}

async function socketsMode() {
  const N = Number(arg('sockets'));
  const port = Number(arg('port', whitePort));
  const HOLD_S = Number(arg('hold', 12));
  log(`${N} sockets on ${port}, hello only; then ${HOLD_S} s connected and idle`);
  const rss0 = echecsPids.map(rssKb);
  const r0 = redisInfo();
  const c0 = cpuSnapshot();
  const socks = [];
  let answered = 0;
  for (let i = 0; i < N; i += 100) {
    await Promise.all(
      Array.from({ length: Math.min(100, N - i) }, (_, k) =>
        socket(port, token(i + k, 's'), (m) => {
          if (m.type === 'my_seeks') answered++;
        }).then((ws) => socks.push(ws)),
      ),
    );
    if (Date.now() > deadline) throw new Error(`only ${socks.length} of ${N} sockets opened before the deadline`);
  }
  const openS = (performance.now() - c0.t) / 1000;
  for (let i = 0; i < 200 && answered < N && Date.now() < deadline; i++) await sleep(100);
  const c1 = cpuSnapshot();
  const r1 = redisInfo();
  await sleep(HOLD_S * 1000);
  const c2 = cpuSnapshot();
  const r2 = redisInfo();
  const rss1 = echecsPids.map(rssKb);
  const result = {
    label: 'sockets',
    sockets: N,
    opened_in_s: openS,
    my_seeks_answers: answered,
    rss_kb_before: rss0,
    rss_kb_after: rss1,
    rss_kb_per_socket: rss1.map((x, i) => (x - rss0[i]) / N),
    connect_cpu_ms_per_socket: c1.echecs.map((x, i) => (x - c0.echecs[i]) / N),
    connect_publish_per_socket: (r1.publish - r0.publish) / N,
    connect_redis_bytes_per_socket: (r1.in - r0.in) / N,
    idle_seconds: (c2.t - c1.t) / 1000,
    idle_cpu_ms_per_s: c2.echecs.map((x, i) => (x - c1.echecs[i]) / ((c2.t - c1.t) / 1000)),
    idle_publish_per_s: (r2.publish - r1.publish - 0) / ((c2.t - c1.t) / 1000),
    idle_redis_cpu_ms_per_s: (c2.redis - c1.redis) / ((c2.t - c1.t) / 1000),
  };
  log(
    `${socks.length} sockets open in ${openS.toFixed(1)} s, ${answered} answered; RSS per socket ` +
      `${result.rss_kb_per_socket.map((x) => x.toFixed(1)).join(' / ')} KB; ${result.connect_publish_per_socket.toFixed(2)} PUBLISH per hello; ` +
      `idle CPU ${result.idle_cpu_ms_per_s.map((x) => x.toFixed(1)).join(' / ')} ms/s, ${result.idle_publish_per_s.toFixed(1)} PUBLISH/s`,
  );
  console.log(JSON.stringify(result));
  for (const ws of socks) ws.terminate();
  process.exit(answered === N ? 0 : 1);
}

const watchdog = setTimeout(() => {
  log(`watchdog: still running after ${TIMEOUT_MS + 60000} ms, giving up`);
  process.exit(3);
}, TIMEOUT_MS + 60000);
watchdog.unref();
(arg('sockets') ? socketsMode() : main()).catch((e) => {
  log('failed:', e.stack || e.message);
  process.exit(2);
});
