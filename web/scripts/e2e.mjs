// Runs the end-to-end suite (../tests/e2e) at the sizes where the size
// matters: each test file names its sizes in a line `// e2e sizes: desktop
// phone` (no such line: desktop only). So every flow runs once, on the
// desktop, and the phone runs the phone flows and the files whose page
// differs on a phone (every page's smoke test among them).
//
// The two sizes run at once, each in its own `node --test` with several files
// at a time (the tests wait on the browser and the server far more than they
// compute: the desktop suite took 474 s one file at a time with 150 s of CPU).
// Each file has its own server and browser, so files never share state.
//   node scripts/e2e.mjs [--jobs N] [--serial] [FILE...]
//     --jobs N    files at a time per size (default: desktop 3, phone 2)
//     --serial    one size after the other, one file at a time
//   ECHECS_E2E_DEVICE=desktop|phone   one size only (every file that has it)
// Prints each size's time and where the screenshots are.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const serial = args.includes('--serial');
const jobsArg = args.indexOf('--jobs');
const jobs = jobsArg >= 0 ? Number(args[jobsArg + 1]) : 0;
if (jobsArg >= 0 && !(jobs >= 1)) {
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

const only = process.env.ECHECS_E2E_DEVICE;
const devices = only ? [only] : ['desktop', 'phone'];
const plan = devices
  .map(device => ({ device, files: files.filter(f => sizesOf(f).includes(device)) }))
  .filter(p => p.files.length > 0);

function run({ device, files }) {
  const start = Date.now();
  const concurrency = serial ? 1 : jobs || (device === 'desktop' ? 3 : 2);
  return new Promise(resolve => {
    const child = spawn(process.execPath, ['--test', `--test-concurrency=${concurrency}`, ...files], {
      cwd: join(root, 'web'),
      env: { ...process.env, ECHECS_E2E_DEVICE: device },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', d => {
      out += d;
      // with two sizes at once the outputs would interleave: each is printed when it ends
      if (serial) process.stdout.write(d);
    });
    child.on('close', code => {
      if (!serial) process.stdout.write(out);
      resolve({ device, files: files.length, concurrency, code: code ?? 1, seconds: (Date.now() - start) / 1000 });
    });
  });
}

const t0 = Date.now();
const results = [];
if (serial) for (const p of plan) results.push(await run(p));
else results.push(...(await Promise.all(plan.map(run))));
for (const r of results) {
  console.log(`# e2e ${r.device}: ${r.code === 0 ? 'passed' : 'FAILED'} in ${r.seconds.toFixed(1)} s (${r.files} files, ${r.concurrency} at a time)`);
}
console.log(`# e2e total: ${((Date.now() - t0) / 1000).toFixed(1)} s; screenshots in ${join(root, 'artifacts/e2e')}/<device>/`);
process.exit(results.length > 0 && results.every(r => r.code === 0) ? 0 : 1);
