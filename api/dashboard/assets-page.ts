// GET /dashboard/assets (?app=): an app's marketing assets (the agent API's rows, featured first) with a preview
// link to the stored file, a feature / unfeature button (POST /api/assets/{id}/featured, svc_set_asset_featured's
// handler) and the upload form (multipart to POST /api/apps/{app_id}/assets; limits in api/dashboard/asset-upload.ts).
import { Router } from '@koa/router';
import { listAssets } from '../../db/assets.js';
import { escapeHtml as e } from '../../lib/html.js';
import type { AppContext, RequestState } from '../context.js';
import { pickApp, when } from './app-picker.js';
import { buttonForm, csrfField, dashboardPage, orgLink, signedIn } from './layout.js';

const size = (bytes: unknown) => (bytes === null || bytes === undefined ? '' : Number(bytes) < 1024 * 1024 ? `${Math.ceil(Number(bytes) / 1024)} KB` : `${(Number(bytes) / 1048576).toFixed(1)} MB`);

async function assetsPage(ctx: AppContext): Promise<void> {
  const s = await signedIn(ctx);
  if (!s) return;
  const { app, picker } = await pickApp(ctx, s);
  if (!app) return dashboardPage(ctx, s, 200, 'Marketing assets', `<p>No app yet: <a href="${e(orgLink(s, '/dashboard'))}">create one</a>.</p>`);
  const assets = await listAssets(ctx.deps.db, app.id);
  const back = orgLink(s, `/dashboard/assets?app=${encodeURIComponent(app.id)}`);
  const maxMb = (ctx.deps.config.ASSET_MAX_BYTES / 1048576).toFixed(1);
  const rows = assets.map((a) => {
    const file = a.storage_key ? `<a href="/api/assets/${e(a.id)}/file">${e(String(a.mime_type))}</a>` : a.url ? `<a href="${e(a.url as string)}" rel="noopener noreferrer">link</a>` : '';
    return `<tr data-asset="${e(a.id)}"><td>${e((a.title as string | null) ?? a.id)}</td><td>${e(String(a.type))}</td><td>${e((a.category as string | null) ?? '')}</td><td>${file} ${size(a.size_bytes)}</td><td>${e(when(a.created_at))}</td><td class="asset-featured">${a.featured ? 'featured' : ''}</td><td>${
      buttonForm(s, `/api/assets/${a.id}/featured`, a.featured ? 'Unfeature' : 'Feature', { returnTo: back, fields: { featured: String(!a.featured) } })}</td></tr>`;
  }).join('\n');
  dashboardPage(ctx, s, 200, 'Marketing assets', `${picker}<p class="muted">Material creators use to promote <strong>${e(String(app.name))}</strong>. Featured assets are listed first, here and to agents.</p>
${assets.length ? `<table id="assets"><thead><tr><th>Title</th><th>Type</th><th>Category</th><th>File</th><th>Uploaded</th><th>Featured</th><th></th></tr></thead><tbody>${rows}</tbody></table>` : '<p class="muted">No assets yet.</p>'}
<h2>Upload an asset</h2>
<form method="post" action="/api/apps/${e(app.id)}/assets" enctype="multipart/form-data">${csrfField(s)}
<label for="as-file">File (PNG, JPEG, GIF, WebP, PDF or MP4; up to ${maxMb} MB)</label><input id="as-file" name="file" type="file" required accept="image/png,image/jpeg,image/gif,image/webp,application/pdf,video/mp4">
<label for="as-title">Title (optional)</label><input id="as-title" name="title" maxlength="200">
<label for="as-type">Type (optional: image, video or document from the file)</label><input id="as-type" name="type" maxlength="64" pattern="[a-z0-9][a-z0-9_\\-]*">
<label for="as-cat">Category (optional, e.g. story, banner)</label><input id="as-cat" name="category" maxlength="64" pattern="[a-z0-9][a-z0-9_\\-]*">
<label for="as-desc">Description (optional)</label><textarea id="as-desc" name="description" maxlength="2000"></textarea>
<button type="submit">Upload</button></form>`);
}

export function assetsRoutes(): Router<RequestState, AppContext> {
  const router = new Router<RequestState, AppContext>();
  router.get('/dashboard/assets', assetsPage);
  return router;
}
