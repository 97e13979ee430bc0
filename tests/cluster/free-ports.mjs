// Prints N free TCP ports of 127.0.0.1, one a line, taken at random from
// 20000-32767: below Linux's ephemeral ports (32768-60999), where the
// machine's own outgoing connections could take one between this check and
// its use (scripts/postgres-test.sh has the same rule); never 25432, the
// port of the test command's other PostgreSQL (the `postgres` stage, which
// may start while this runs).
//   node tests/cluster/free-ports.mjs N
import { createServer } from 'node:net';

const n = Number(process.argv[2] || 1);
const LOW = 20000;
const HIGH = 32767;

const free = (port) =>
  new Promise((res) => {
    const s = createServer();
    s.once('error', () => res(false));
    s.listen(port, '127.0.0.1', () => s.close(() => res(true)));
  });

const AVOID = new Set([25432]);
const found = new Set();
for (let tries = 0; found.size < n && tries < 2000; tries++) {
  const port = LOW + Math.floor(Math.random() * (HIGH - LOW + 1));
  if (!found.has(port) && !AVOID.has(port) && (await free(port))) found.add(port);
}
if (found.size < n) {
  console.error(`free-ports: found ${found.size} free ports of ${n} in ${LOW}-${HIGH}`);
  process.exit(1);
}
console.log([...found].join('\n'));
