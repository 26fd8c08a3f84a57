// Builds dist/: ES modules (dist/esm), CommonJS (dist/cjs, marked by its own package.json) and declarations
// next to each. One file per source module, not a bundle: the app's bundler tree-shakes (sideEffects: false) and
// both formats share no duplicated state. `npm test` runs this first (pretest), so tests see the current source.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const src = path.join(root, 'src');
const dist = path.join(root, 'dist');
const entryPoints = readdirSync(src)
  .filter((f) => f.endsWith('.ts'))
  .map((f) => path.join(src, f));

rmSync(dist, { recursive: true, force: true });
const common = { entryPoints, outbase: src, bundle: false, platform: 'neutral', target: 'es2020', logLevel: 'warning' };
await build({ ...common, format: 'esm', outdir: path.join(dist, 'esm') });
await build({ ...common, format: 'cjs', outdir: path.join(dist, 'cjs') });
// The CJS files keep their `.js` names and relative `./x.js` requires; this marker makes Node read them as CJS.
writeFileSync(path.join(dist, 'cjs', 'package.json'), '{ "type": "commonjs" }\n');

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.json')], { stdio: 'inherit' });
mkdirSync(path.join(dist, 'cjs'), { recursive: true });
for (const f of readdirSync(path.join(dist, 'esm')).filter((n) => n.endsWith('.d.ts'))) {
  copyFileSync(path.join(dist, 'esm', f), path.join(dist, 'cjs', f));
}
