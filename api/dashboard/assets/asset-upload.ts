// POST /api/apps/{app_id}/assets (dashboard REST, multipart): a signed-in member uploads a marketing asset; GET
// /api/assets/{asset_id}/file serves it back. The asset-upload link's page (asset-link.tsx) reads and saves through
// the same two steps with up to ten files. Limits, checked before anything is stored (as the credential upload):
// a file over ASSET_MAX_BYTES or a body beyond it is 413; a file that is not PNG, JPEG, GIF, WebP, PDF or MP4 by
// its first bytes (the client's declared type and file name are not trusted) or a body that is not multipart is 415;
// a missing file or a bad field is 422 naming it. The file is stored under a server-made key, then the row is
// inserted (actions/assets.ts); if the insert fails the file is removed, so a file and its row exist both or neither. Served files carry
// the type found at upload and `X-Content-Type-Options: nosniff`.
import { saveAssets, type AssetKind as Kind, type AssetMeta, type AssetUpload } from '../../../actions/assets.js';
import { findApp } from '../../../db/apps.js';
import { findAsset } from '../../../db/assets.js';
import { AppError, ValidationError } from '../../../errors/http-errors.js';
import { problemsFrom } from '../../../lib/validation.js';
import { actorIdOf, visibleTo } from '../../agent/principal.js';
import { checkSessionCsrf } from '../../auth/csrf.js';
import type { AppContext } from '../../context.js';
import { readMultipart } from '../../middleware/multipart.js';
import { sendAssetFile } from '../../send-asset-file.js';

/** Recognised by content; SVG and HTML are left out on purpose (they can carry script). */
export function sniffAsset(data: Buffer): Kind | undefined {
  const at = (offset: number, text: string) => data.subarray(offset, offset + text.length).toString('latin1') === text;
  if (data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return { mime: 'image/png', ext: 'png', type: 'image' };
  if (data.length > 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return { mime: 'image/jpeg', ext: 'jpg', type: 'image' };
  if (at(0, 'GIF87a') || at(0, 'GIF89a')) return { mime: 'image/gif', ext: 'gif', type: 'image' };
  if (at(0, 'RIFF') && at(8, 'WEBP')) return { mime: 'image/webp', ext: 'webp', type: 'image' };
  if (at(0, '%PDF-')) return { mime: 'application/pdf', ext: 'pdf', type: 'document' };
  if (at(4, 'ftyp')) return { mime: 'video/mp4', ext: 'mp4', type: 'video' };
  return undefined;
}

const WORD = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const FIELDS: Record<string, { max: number; pattern?: RegExp; hint: string }> = {
  type: { max: 64, pattern: WORD, hint: 'lowercase letters, digits, _ or -, up to 64 (default: image, video or document from the file)' },
  category: { max: 64, pattern: WORD, hint: 'lowercase letters, digits, _ or -, up to 64' },
  title: { max: 200, hint: 'up to 200 characters' },
  description: { max: 2000, hint: 'up to 2000 characters' },
};

function assetFields(fields: Record<string, string>): AssetMeta {
  const out: Record<string, string | null> = {};
  const problems = [];
  for (const [name, rule] of Object.entries(FIELDS)) {
    const value = fields[name]?.trim() ?? '';
    out[name] = value === '' ? null : value;
    if (value !== '' && (value.length > rule.max || (rule.pattern && !rule.pattern.test(value)))) {
      problems.push({ loc: ['body', name], msg: `Must be ${rule.hint}`, type: 'value_error' });
    }
  }
  if (problems.length > 0) throw new ValidationError(problems);
  return out as unknown as AssetMeta;
}

const NOT_AN_ASSET = 'The file is not a PNG, JPEG, GIF, WebP, PDF or MP4 (judged by its content, not its name).';

/** Reads and checks a multipart upload of up to `maxFiles` files (limits above); nothing is stored yet. */
export async function readAssetUpload(ctx: AppContext, maxFiles: number): Promise<AssetUpload> {
  if (!ctx.is('multipart/form-data')) throw new AppError(415, 'Send the asset as a multipart/form-data upload with a `file` field.');
  const max = ctx.deps.config.ASSET_MAX_BYTES;
  const { fields, files } = await readMultipart(ctx, {
    maxFileBytes: max,
    maxBodyBytes: max * maxFiles + 64 * 1024,
    maxFiles,
    maxFields: 20,
  });
  if (ctx.state.csrfDeferred) checkSessionCsrf(ctx, fields.csrf);
  // An empty file input still sends an empty part.
  const chosen = files.filter((f) => f.data.length > 0);
  const fieldProblems = problemsFrom(() => assetFields(fields));
  const typed = chosen.map((f) => ({ f, kind: sniffAsset(f.data) }));
  const wrong = typed.find((t) => !t.kind);
  const fileProblem =
    chosen.length === 0
      ? 'Choose a file to upload'
      : wrong
        ? `${chosen.length > 1 ? `"${wrong.f.filename}": ` : ''}${NOT_AN_ASSET}`
        : undefined;
  // Every problem at once: a wrong file alone is 415; with bad fields, one 422 lists them all.
  if (wrong && fieldProblems.length === 0) throw new AppError(415, fileProblem);
  if (fileProblem || fieldProblems.length > 0)
    throw new ValidationError([
      ...(fileProblem ? [{ loc: ['body', 'file'], msg: fileProblem, type: chosen.length ? 'value_error' : 'missing' }] : []),
      ...fieldProblems,
    ]);
  return { files: typed.map((t) => ({ data: t.f.data, kind: t.kind! })), meta: assetFields(fields) };
}

export async function uploadAssetHandler(ctx: AppContext): Promise<void> {
  const app = visibleTo(ctx, await findApp(ctx.deps.db, ctx.params.app_id as string), 'App');
  const upload = await readAssetUpload(ctx, 1);
  const [row] = await saveAssets(ctx.deps, { app, upload, uploadedBy: actorIdOf(ctx) });
  ctx.status = 201;
  ctx.body = row;
}

export async function assetFileHandler(ctx: AppContext): Promise<void> {
  await sendAssetFile(ctx, visibleTo(ctx, await findAsset(ctx.deps.db, ctx.params.asset_id as string), 'Asset'));
}
