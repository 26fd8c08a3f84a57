// GET /dashboard/assets (?app=): an app's marketing assets (the agent API's rows, featured first) with a preview
// link to the stored file, a feature / unfeature button (POST /api/assets/{id}/featured, svc_set_asset_featured's
// handler) and the upload form (multipart to POST /api/apps/{app_id}/assets; limits in api/dashboard/assets/asset-upload.ts).
import { listAssets } from '../../../db/assets.js';
import { safeUrl } from '../../view-kit/html.js';
import type { AppContext } from '../../context.js';
import { pickApp, when } from '../apps/app-picker.js';
import { FILE_AGAIN, type FormWords } from '../../view-kit/form-errors.js';
import { ButtonForm, dashboardPage, OrgLink, orgLink, PostForm, stateFor, Table } from '../../view-kit/layout.js';
import { signedIn } from '../signed-in.js';
import { Field } from '../../view-kit/ui.js';

const size = (bytes: unknown) =>
  bytes === null || bytes === undefined
    ? ''
    : Number(bytes) < 1024 * 1024
      ? `${Math.ceil(Number(bytes) / 1024)} KB`
      : `${(Number(bytes) / 1048576).toFixed(1)} MB`;

function AssetFile({ asset }: { asset: Awaited<ReturnType<typeof listAssets>>[number] }) {
  if (asset.storage_key) return <a href={safeUrl(`/api/assets/${asset.id}/file`)}>{String(asset.mime_type)}</a>;
  // An agent may store any URI here: a javascript: or data: one is shown without its link.
  if (asset.url)
    return (
      <a href={safeUrl(asset.url)} rel="noopener noreferrer">
        link
      </a>
    );
  return null;
}

/** The upload form's words: labels, and each rule as a person reads it (asset-upload.ts checks them). */
export const ASSET_WORDS = {
  labels: {
    file: 'File',
    title: 'Title (optional)',
    type: 'Type (optional: image, video or document from the file)',
    category: 'Category (optional, e.g. story, banner)',
    description: 'Description (optional)',
  },
  rules: {
    file: 'Choose a PNG, JPEG, GIF, WebP, PDF or MP4 file.',
    title: 'Use at most 200 characters.',
    type: 'Use up to 64 lowercase letters, digits, _ or -, starting with a letter or digit (such as image), or leave it empty.',
    category: 'Use up to 64 lowercase letters, digits, _ or -, starting with a letter or digit (such as story), or leave it empty.',
    description: 'Use at most 2000 characters.',
  },
} satisfies FormWords;
const L = ASSET_WORDS.labels;

export async function assetsPage(ctx: AppContext): Promise<void> {
  const s = await signedIn(ctx);
  if (!s) return;
  const state = stateFor(s, 'new-asset');
  const { app, picker } = await pickApp(ctx, s);
  if (!app)
    return dashboardPage(
      ctx,
      s,
      200,
      'Marketing assets',
      <p>
        No app yet:{' '}
        <OrgLink s={s} to="/dashboard">
          create one
        </OrgLink>
        .
      </p>,
    );
  const assets = await listAssets(ctx.deps.db, app.id);
  const back = orgLink(s, `/dashboard/assets?app=${encodeURIComponent(app.id)}`);
  const maxMb = (ctx.deps.config.ASSET_MAX_BYTES / 1048576).toFixed(1);
  dashboardPage(
    ctx,
    s,
    200,
    'Marketing assets',
    <>
      {picker}
      <p class="muted">
        Material creators use to promote <strong>{String(app.name)}</strong>. Featured assets are listed first, here and to agents.
      </p>
      {assets.length ? (
        <Table id="assets" columns={['Title', 'Type', 'Category', 'File', 'Uploaded', 'Featured', '']}>
          {assets.map((a) => (
            <tr data-asset={a.id}>
              <td>{(a.title as string | null) ?? a.id}</td>
              <td>{String(a.type)}</td>
              <td>{(a.category as string | null) ?? ''}</td>
              <td>
                <AssetFile asset={a} /> {size(a.size_bytes)}
              </td>
              <td>{when(a.created_at)}</td>
              <td class="asset-featured">{a.featured ? 'featured' : ''}</td>
              <td>
                <ButtonForm
                  s={s}
                  action={`/api/assets/${a.id}/featured`}
                  label={a.featured ? 'Unfeature' : 'Feature'}
                  returnTo={back}
                  fields={{ featured: String(!a.featured) }}
                />
              </td>
            </tr>
          ))}
        </Table>
      ) : (
        <p class="muted">No assets yet.</p>
      )}
      <h2>Upload an asset</h2>
      <PostForm s={s} action={`/api/apps/${app.id}/assets`} returnTo={back} multipart formId="new-asset">
        <Field
          id="as-file"
          name="file"
          type="file"
          label={`${L.file} (PNG, JPEG, GIF, WebP, PDF or MP4; up to ${maxMb} MB)`}
          hint={state ? FILE_AGAIN : undefined}
          required
          accept="image/png,image/jpeg,image/gif,image/webp,application/pdf,video/mp4"
          state={state}
        />
        <Field id="as-title" name="title" label={L.title} maxlength={200} state={state} />
        <Field id="as-type" name="type" label={L.type} maxlength={64} state={state} />
        <Field id="as-cat" name="category" label={L.category} maxlength={64} state={state} />
        <Field id="as-desc" name="description" label={L.description} textarea maxlength={2000} state={state} />
        <button type="submit">Upload</button>
      </PostForm>
    </>,
  );
}
