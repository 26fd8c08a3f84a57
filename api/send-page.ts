// Answers a request with one of our self-contained HTML pages (api/view-kit/html.tsx), under a CSP that admits only the
// page's own inline style and script.
import { randomBytes } from 'node:crypto';
import { pageSecurityPolicy, renderPage, type Page } from './view-kit/html.js';
import type { AppContext } from './context.js';

export function sendPage(ctx: AppContext, status: number, page: Page): void {
  const nonce = randomBytes(16).toString('base64');
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Content-Security-Policy', pageSecurityPolicy(nonce, page.connectSrc, page.formAction));
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.body = renderPage(page, nonce);
}
