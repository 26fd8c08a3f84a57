// GET /dashboard/static/chart.js: the charting library of the analytics page (Chart.js, the UMD build from
// node_modules), served by us so the pages load nothing from elsewhere (the CSP admits only our own nonce'd
// scripts). Read once, kept in memory; no session needed (it is the public library, nothing of ours).
import { Router } from '@koa/router';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { AppContext, RequestState } from '../context.js';

export const CHART_JS_PATH = '/dashboard/static/chart.js';

let chartJs: Promise<Buffer> | undefined;

/** The package's `require` entry is dist/chart.cjs; the browser build sits beside it. */
const loadChartJs = () => (chartJs ??= readFile(path.join(path.dirname(createRequire(import.meta.url).resolve('chart.js')), 'chart.umd.min.js')));

export function staticAssetRoutes(): Router<RequestState, AppContext> {
  const router = new Router<RequestState, AppContext>();
  router.get(CHART_JS_PATH, async (ctx) => {
    ctx.set({ 'Cache-Control': 'public, max-age=3600', 'X-Content-Type-Options': 'nosniff' });
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.body = await loadChartJs();
  });
  return router;
}
