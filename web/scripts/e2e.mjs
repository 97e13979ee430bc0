// Runs the end-to-end suite (../tests/e2e) at the sizes where the size
// matters: each test file names its sizes in a line `// e2e sizes: desktop
// phone` (no such line: desktop only). So every flow runs once, on the
// desktop, and the phone runs the phone flows and the files whose page
// differs on a phone (every page's smoke test among them).
//
// One queue of (file, size) jobs, several at a time, each its own
// `node --test` (each file has its own server and browser, so files never
// share state); the longest first, as the last run measured them (kept in
// $ECHECS_E2E_TIMES, default /var/tmp/echecs-e2e-times.json; without it, the
// larger file first), so that no long file starts last and runs alone. The
// tests wait on the browser and the server far more than they compute (the
// desktop suite took 474 s one file at a time with 150 s of CPU).
//   node scripts/e2e.mjs [--jobs N] [--serial] [FILE...]
//     --jobs N    files at a time (default 5)
//     --serial    one file at a time, its output as it comes
//   ECHECS_E2E_DEVICE=desktop|phone   one size only (every file that has it)
// Each job's output is printed when it ends, then each size's count and the
// time, and where the screenshots are.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const serial = args.includes('--serial');
const jobsArg = args.indexOf('--jobs');
const jobs = jobsArg >= 0 ? Number(args[jobsArg + 1]) : 5;
if (!(jobs >= 1)) {
  console.error('--jobs needs a number of files, at least 1');
  process.exit(2);
}
const named = args.filter((a, i) => !a.startsWith('--') && !(jobsArg >= 0 && i === jobsArg + 1)).map(f => resolve(f));
const e2eDir = join(root, 'tests/e2e');
const files = named.length ? named : readdirSync(e2eDir).filter(f => f.endsWith('.test.mjs')).sort().map(f => join(e2eDir, f));

/** The sizes a file runs at, from its `// e2e sizes:` line. */
function sizesOf(file) {
  const m = readFileSync(file, 'utf8').match(/^\/\/ e2e sizes:([a-z ]+)$/m);
  const sizes = m ? m[1].trim().split(/\s+/) : ['desktop'];
  for (const s of sizes) if (s !== 'desktop' && s !== 'phone') throw new Error(`${file}: unknown size '${s}'`);
  return sizes;
}

const timesFile = process.env.ECHECS_E2E_TIMES || '/var/tmp/echecs-e2e-times.json';
let times = {};
try {
  times = JSON.parse(readFileSync(timesFile, 'utf8'));
} catch {
  /* no earlier run: by size */
}
const key = (file, device) => `${basename(file)} ${device}`;
/** The expected seconds of a job: last run's, else its file's size as a stand-in (1 s per kB). */
const expected = (file, device) => times[key(file, device)] ?? statSync(file).size / 1000;

const only = process.env.ECHECS_E2E_DEVICE;
const devices = only ? [only] : ['desktop', 'phone'];
const queue = devices
  .flatMap(device => files.filter(f => sizesOf(f).includes(device)).map(file => ({ file, device })))
  .sort((a, b) => expected(b.file, b.device) - expected(a.file, a.device));

function run({ file, device }) {
  const start = Date.now();
  return new Promise(resolve => {
    const child = spawn(process.execPath, ['--test', file], {
      cwd: join(root, 'web'),
      env: { ...process.env, ECHECS_E2E_DEVICE: device },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', d => {
      // several at once would interleave: each job is printed when it ends
      if (serial) process.stdout.write(d);
      else out += d;
    });
    child.on('close', code => {
      const seconds = (Date.now() - start) / 1000;
      const ok = code === 0;
      if (!serial) process.stdout.write(out);
      console.log(`# e2e ${basename(file)} (${device}): ${ok ? 'passed' : 'FAILED'} in ${seconds.toFixed(1)} s`);
      resolve({ file, device, ok, seconds });
    });
  });
}

const t0 = Date.now();
const results = [];
const width = serial ? 1 : jobs;
await Promise.all(
  Array.from({ length: Math.min(width, queue.length) }, async () => {
    for (let job = queue.shift(); job; job = queue.shift()) results.push(await run(job));
  }),
);
for (const device of devices) {
  const mine = results.filter(r => r.device === device);
  if (!mine.length) continue;
  const failed = mine.filter(r => !r.ok).map(r => basename(r.file));
  console.log(
    `# e2e ${device}: ${failed.length ? `FAILED (${failed.join(', ')})` : 'passed'}: ${mine.length} files, ` +
      `${mine.reduce((n, r) => n + r.seconds, 0).toFixed(1)} s of files`,
  );
}
console.log(`# e2e total: ${((Date.now() - t0) / 1000).toFixed(1)} s, ${width} files at a time; screenshots in ${join(root, 'artifacts/e2e')}/<device>/`);
// the times of this run, for the next run's order (a whole-suite run only)
if (!named.length && !only) {
  try {
    writeFileSync(timesFile, JSON.stringify(Object.fromEntries(results.map(r => [key(r.file, r.device), Math.round(r.seconds)])), null, 1));
  } catch {
    /* a read-only place: the next run orders by size */
  }
}
process.exit(results.length > 0 && results.every(r => r.ok) ? 0 : 1);
