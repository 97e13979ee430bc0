// Builds the client into web/dist: one JS bundle, one CSS bundle (chessground's
// stylesheets and the standard piece set included, as data URIs from npm),
// index.html and the favicon. No asset comes from outside the npm registry.
import * as esbuild from 'esbuild';
import { mkdir, readFile, rm, writeFile, copyFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const web = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(web, 'dist');
const watch = process.argv.includes('--watch');

await rm(dist, { recursive: true, force: true });
await mkdir(dist, { recursive: true });

const common = {
  bundle: true,
  minify: !watch,
  sourcemap: true,
  logLevel: 'info',
  target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
};

const js = { ...common, entryPoints: [join(web, 'src/main.ts')], outfile: join(dist, 'app.js'), format: 'esm' };
const css = { ...common, entryPoints: [join(web, 'src/style.css')], outfile: join(dist, 'app.css') };

async function page() {
  const hash = createHash('sha256');
  for (const f of ['app.js', 'app.css']) hash.update(await readFile(join(dist, f)));
  const html = (await readFile(join(web, 'index.html'), 'utf8')).replaceAll('__VERSION__', hash.digest('hex').slice(0, 10));
  await writeFile(join(dist, 'index.html'), html);
  await copyFile(join(web, 'favicon.svg'), join(dist, 'favicon.svg'));
}

if (watch) {
  const a = await esbuild.context(js);
  const b = await esbuild.context(css);
  await Promise.all([a.rebuild(), b.rebuild()]);
  await page();
  await Promise.all([a.watch(), b.watch()]);
} else {
  await Promise.all([esbuild.build(js), esbuild.build(css)]);
  await page();
}
