// GET /dashboard: the organization's apps (each linking to its setup page) and the form that creates an app
// (POST /api/apps, whose answer shows the new webhook secret and purchase API key once).
import { Router } from '@koa/router';
import { listAppsInOrgs } from '../../db/apps.js';
import { escapeHtml } from '../../lib/html.js';
import type { AppContext, RequestState } from '../context.js';
import { csrfField, dashboardPage, orgLink, signedIn } from './layout.js';
import { setupPage } from './setup-page.js';

async function home(ctx: AppContext): Promise<void> {
  const s = await signedIn(ctx);
  if (!s) return;
  const apps = s.orgId ? await listAppsInOrgs(ctx.deps.db, [s.orgId]) : [];
  const rows = apps.map((a) => `<tr><td><a href="${escapeHtml(orgLink(s, `/dashboard/apps/${a.id}`))}">${escapeHtml(String(a.name))}</a></td><td><code>${escapeHtml(String(a.slug))}</code></td><td>${a.sdk_initialized_at ? 'SDK seen' : 'SDK not initialized yet'}</td></tr>`).join('');
  dashboardPage(ctx, s, 200, 'Apps', `${apps.length === 0 ? '<p>No app yet: create your first one below.</p>' : `<table><thead><tr><th>App</th><th>Slug</th><th>SDK</th></tr></thead><tbody>${rows}</tbody></table>`}
<h2>Create an app</h2>
<form method="post" action="/api/apps">${csrfField(s)}<input type="hidden" name="return_to" value="${escapeHtml(orgLink(s, '/dashboard'))}">${s.orgId ? `<input type="hidden" name="org_id" value="${escapeHtml(s.orgId)}">` : ''}
<label for="app-name">App name</label><input id="app-name" name="name" required maxlength="200">
<label for="app-slug">Slug for referral links (optional)</label><input id="app-slug" name="slug" maxlength="63" pattern="[a-z0-9][a-z0-9_-]*">
<label for="app-ios">App Store URL (optional)</label><input id="app-ios" name="ios_store_url" type="url">
<label for="app-android">Google Play URL (optional)</label><input id="app-android" name="android_store_url" type="url">
<button type="submit">Create app</button></form>`);
}

export function homeRoutes(): Router<RequestState, AppContext> {
  const router = new Router<RequestState, AppContext>();
  router.get('/dashboard', home);
  router.get('/dashboard/apps/:app_id', setupPage);
  return router;
}
