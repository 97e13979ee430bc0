// Runs the end-to-end suite (../tests/e2e) at both sizes: desktop (mouse) and
// phone (390x844, touch), the two sizes at once (each file still runs alone
// within its size: measured 486-555 s against 749 s one size after the other,
// on this shared 2-core machine under load); `--serial` runs them one after
// the other. One device only with ECHECS_E2E_DEVICE=desktop|phone. Prints
// each size's time and where the screenshots are.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const only = process.env.ECHECS_E2E_DEVICE;
const devices = only ? [only] : ['desktop', 'phone'];
const parallel = !process.argv.includes('--serial');
const files = process.argv.slice(2).filter(a => !a.startsWith('--'));

function run(device) {
  const start = Date.now();
  return new Promise(resolve => {
    const args = ['--test', '--test-concurrency=1', ...(files.length ? files : [join(root, 'tests/e2e/')])];
    const child = spawn(process.execPath, args, {
      cwd: join(root, 'web'),
      env: { ...process.env, ECHECS_E2E_DEVICE: device },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', d => {
      out += d;
      // with two sizes at once the outputs would interleave: each is printed when it ends
      if (!parallel) process.stdout.write(d);
    });
    child.on('close', code => {
      if (parallel) process.stdout.write(out);
      resolve({ device, code: code ?? 1, seconds: (Date.now() - start) / 1000 });
    });
  });
}

const t0 = Date.now();
const results = [];
if (parallel) results.push(...(await Promise.all(devices.map(run))));
else for (const d of devices) results.push(await run(d));
for (const r of results) console.log(`# e2e ${r.device}: ${r.code === 0 ? 'passed' : 'FAILED'} in ${r.seconds.toFixed(1)} s`);
console.log(`# e2e total: ${((Date.now() - t0) / 1000).toFixed(1)} s; screenshots in ${join(root, 'artifacts/e2e')}/<device>/`);
process.exit(results.every(r => r.code === 0) ? 0 : 1);
