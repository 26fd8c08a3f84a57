// The SDK as a package: ESM and CJS builds with types and sideEffects false, no runtime dependency, nothing read from
// `window` (or any browser global) at import time, the web bundle within its size budget, and the public API as
// recorded in packages/sdk/etc/sdk.api.md.
import test from 'ava';
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { API_REPORT_PATH, apiReport, SDK_ROOT } from '../helpers/sdk-api-report.js';

/** Issue target: the web bundle at 6 KB min+gz or less, read strictly as 6000 bytes. */
const WEB_BUDGET_BYTES = 6000;
const pkg = JSON.parse(readFileSync(path.join(SDK_ROOT, 'package.json'), 'utf8'));

async function minGz(entry: string): Promise<{ min: number; gz: number }> {
  const out = await build({
    stdin: { contents: `import Svc from '${entry}'; globalThis.__svc = Svc;`, resolveDir: SDK_ROOT },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2020',
    write: false,
    logLevel: 'silent',
  });
  const code = out.outputFiles[0]!.contents;
  return { min: code.length, gz: gzipSync(code, { level: 9 }).length };
}

test(`the web bundle (an app importing @svc/sdk/web) is at most ${WEB_BUDGET_BYTES} bytes min+gz`, async (t) => {
  const web = await minGz('@svc/sdk/web');
  const native = await minGz('@svc/sdk/react-native');
  t.log(`web: ${web.min} B min, ${web.gz} B min+gz; react-native: ${native.min} B min, ${native.gz} B min+gz`);
  t.true(web.gz <= WEB_BUDGET_BYTES, `${web.gz} B`);
});

test('package: sideEffects false, no runtime dependencies, ESM + CJS + types for every entry', (t) => {
  t.is(pkg.sideEffects, false);
  t.deepEqual(Object.keys(pkg.dependencies ?? {}), []);
  for (const [entry, target] of Object.entries<any>(pkg.exports)) {
    if (entry === './package.json') continue;
    for (const condition of ['import', 'require']) {
      for (const file of [target[condition].types, target[condition].default])
        t.true(existsSync(path.join(SDK_ROOT, file)), `${entry} ${condition} ${file}`);
    }
  }
  const require = createRequire(import.meta.url);
  const cjs = require('@svc/sdk/web');
  t.is(typeof cjs.default.initialize, 'function');
  t.is(typeof require('@svc/sdk/react-native').createReactNativeClient, 'function');
  t.is(require('@svc/sdk/event-key').canonicalJson({ b: 1, a: 2 }), '{"a":2,"b":1}');
});

test('importing any entry (ESM or CJS) reads no browser global: safe under SSR and in Expo Go', (t) => {
  const trap = [
    'window',
    'document',
    'localStorage',
    'sessionStorage',
    'location',
    'history',
    'navigator',
    'screen',
    'fetch',
    'crypto',
    'AbortController',
  ]
    .map(
      (name) =>
        `Object.defineProperty(globalThis, ${JSON.stringify(name)}, { ` +
        `configurable: true, get() { throw new Error('read ${name} at import time'); } });`,
    )
    .join('');
  const script = `${trap}
    const entries = ['@svc/sdk', '@svc/sdk/web', '@svc/sdk/react-native', '@svc/sdk/event-key', '@svc/sdk/types'];
    for (const e of entries) await import(e);
    const { createRequire } = await import('node:module');
    const require = createRequire(${JSON.stringify(path.join(SDK_ROOT, 'package.json'))});
    for (const e of entries) require(e);
    console.log('ok');`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: SDK_ROOT, encoding: 'utf8' });
  t.is(out.trim(), 'ok');
});

test('the public API matches packages/sdk/etc/sdk.api.md (UPDATE_SDK_API=1 rewrites it)', (t) => {
  const current = apiReport();
  if (process.env.UPDATE_SDK_API === '1') writeFileSync(API_REPORT_PATH, current);
  t.is(current, readFileSync(API_REPORT_PATH, 'utf8'), 'the public API changed: review and update the report');
});
