// The page behind the agent's asset-upload link (svc_get_asset_upload_link): GET shows a file form, and the same URL
// takes the files by POST, from that form or from a script (multipart/form-data, `file` parts, optional `title`,
// `type`, `category`, `description` applied to every file). Up to LINK_MAX_FILES files in one POST, each under the
// dashboard's limits (asset-upload.ts: ASSET_MAX_BYTES, type judged by content); all are stored or none. The link is
// checked first (401 tampered, 410 expired or used) and spent by the POST that stores the files, in the same
// transaction as their rows; a refused upload (413, 415, 422) leaves the link usable. A browser (Accept: text/html)
// gets pages; a script gets JSON: 201 `{uploaded, app_id, assets}` or the `{"detail"}` error.
import { AppError } from '../../../errors/http-errors.js';
import type { AppContext } from '../../context.js';
import { sendPage } from '../../send-page.js';
import { saveAssets } from '../../../actions/assets.js';
import { readAssetUpload } from './asset-upload.js';
import { Problems } from '../../view-kit/form-reply.js';
import { checkLink, linkApp } from '../links/link-check.js';

const LINK_MAX_FILES = 10;

/** The upload form the link page (link-pages.tsx) prints; it posts back to the link's own URL. */
export function AssetLinkForm({ action, maxBytes }: { action: string; maxBytes: number }) {
  const maxMb = (maxBytes / 1048576).toFixed(1);
  return (
    <>
      <form id="asset-upload" method="post" action={action} enctype="multipart/form-data">
        <label for="al-files">
          Files (PNG, JPEG, GIF, WebP, PDF or MP4; up to {LINK_MAX_FILES} files of {maxMb} MB each)
        </label>
        <input
          id="al-files"
          name="file"
          type="file"
          multiple
          required
          accept="image/png,image/jpeg,image/gif,image/webp,application/pdf,video/mp4"
        />
        <label for="al-title">Title (optional, for every file)</label>
        <input id="al-title" name="title" maxlength={200} />
        <label for="al-cat">Category (optional, e.g. story, banner)</label>
        <input id="al-cat" name="category" maxlength={64} pattern="[a-z0-9][a-z0-9_\-]*" />
        <label for="al-desc">Description (optional)</label>
        <input id="al-desc" name="description" maxlength={2000} />
        <button type="submit">Upload</button>
      </form>
      <p class="muted">
        Scripts: POST the same URL as multipart/form-data with one <code>file</code> part per file.
      </p>
    </>
  );
}

async function saveFromLink(ctx: AppContext) {
  const checked = await checkLink(ctx, 'asset-upload');
  if (!checked.ok) throw new AppError(checked.status, checked.message);
  const { claims } = checked;
  const app = await linkApp(ctx, claims);
  const upload = await readAssetUpload(ctx, LINK_MAX_FILES);
  const assets = await saveAssets(ctx.deps, { app, upload, uploadedBy: 'asset-upload-link', link: claims });
  return { uploaded: assets.length, app_id: app.id, assets };
}

export async function uploadAssetsFromLink(ctx: AppContext): Promise<void> {
  if (ctx.accepts('json', 'html') !== 'html') {
    ctx.status = 201;
    ctx.body = await saveFromLink(ctx);
    return;
  }
  let saved;
  try {
    saved = await saveFromLink(ctx);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const retry = err.status === 401 || err.status === 410 ? 'Ask your agent for a new link.' : 'Go back to fix it: the link still works.';
    return sendPage(ctx, err.status, {
      title: 'Not uploaded',
      lang: 'en',
      body: (
        <>
          <h1>Nothing was uploaded</h1>
          <div role="alert" class="error">
            <Problems err={err} />
          </div>
          <p>{retry}</p>
        </>
      ),
    });
  }
  const { uploaded, assets } = saved;
  sendPage(ctx, 201, {
    title: 'Assets uploaded',
    lang: 'en',
    body: (
      <>
        <h1>Assets uploaded</h1>
        <p id="uploaded-count">
          {uploaded} file{uploaded === 1 ? '' : 's'} uploaded. Your agent sees {uploaded === 1 ? 'it' : 'them'} in the app's asset list now.
          This link is spent; you can close this page.
        </p>
        <ul>
          {assets.map((a) => (
            <li>
              {String(a.mime_type)}, {String(a.size_bytes)} bytes
            </li>
          ))}
        </ul>
      </>
    ),
  });
}
