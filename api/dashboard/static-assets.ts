// GET /dashboard/static/{file}: the pages' scripts, served by us so the pages load nothing from elsewhere (the CSP
// admits only our own nonce'd scripts): the browser scripts of api/dashboard/browser/ (plain JavaScript, checked by
// their own tsconfig with the DOM lib) and the analytics page's charting library (Chart.js, the UMD build from
// node_modules). Read once, kept in memory; no session needed (nothing in them is the user's).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AppContext } from '../context.js';

const BROWSER_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'browser');

/** Path → file on disk. The package's `require` entry of Chart.js is dist/chart.cjs; the browser build sits beside it. */
const FILES = {
  '/dashboard/static/chart.js': () => path.join(path.dirname(createRequire(import.meta.url).resolve('chart.js')), 'chart.umd.min.js'),
  '/dashboard/static/live-events.js': () => path.join(BROWSER_DIR, 'live-events.js'),
  '/dashboard/static/analytics-charts.js': () => path.join(BROWSER_DIR, 'analytics-charts.js'),
  '/dashboard/static/join-page.js': () => path.join(BROWSER_DIR, 'join-page.js'),
  '/dashboard/static/test-purchase.js': () => path.join(BROWSER_DIR, 'test-purchase.js'),
  '/dashboard/static/dashboard.js': () => path.join(BROWSER_DIR, 'dashboard.js'),
} as const;

export type StaticScript = keyof typeof FILES;
export const CHART_JS_PATH: StaticScript = '/dashboard/static/chart.js';

const loaded = new Map<string, Promise<Buffer>>();
const load = (file: StaticScript) => {
  let body = loaded.get(file);
  if (!body) loaded.set(file, (body = readFile(FILES[file]())));
  return body;
};

export const STATIC_SCRIPTS = Object.keys(FILES) as StaticScript[];

/** GET one of STATIC_SCRIPTS (the route's path is the file's). */
export async function staticScript(ctx: AppContext): Promise<void> {
  ctx.set({ 'Cache-Control': 'public, max-age=3600', 'X-Content-Type-Options': 'nosniff' });
  ctx.type = 'text/javascript; charset=utf-8';
  ctx.body = await load(ctx.path as StaticScript);
}
