// POST /api/apps/{app_id}/credentials (dashboard REST, session only): a signed-in human uploads a store credential
// from the setup page, as a form (multipart: the .p8 key or the service-account .json as a file) or as JSON (the
// signed link's body). Limits, checked before anything is stored: a file over 64 KB or a body over 256 KB is 413;
// a file of the wrong kind (not a PEM .p8 for iOS, not a JSON .json for Android) or a body that is neither a form
// nor JSON is 415; missing or malformed fields are 422 naming them. The credential and the app's Apple settings are
// written in one transaction (actions/store-credentials.ts): a refused upload leaves nothing half-stored, and nothing
// of the secret is echoed.
import { storeCredential } from '../../../actions/store-credentials.js';
import { findApp } from '../../../db/apps.js';
import { bad, CREDENTIAL_PARSERS, isCredentialPlatform } from '../../../lib/credential-input.js';
import { AppError, UnavailableError, ValidationError } from '../../../errors/http-errors.js';
import { visibleTo } from '../../agent/principal.js';
import { checkSessionCsrf } from '../../auth/csrf.js';
import type { AppContext } from '../../context.js';
import { readMultipart, type UploadedFile } from '../../middleware/multipart.js';
import { problemsFrom } from '../../../lib/validation.js';
import type { CredentialPlatform } from '../../../schema/types.js';

const UPLOAD_LIMITS = { maxFileBytes: 64 * 1024, maxBodyBytes: 256 * 1024, maxFiles: 1, maxFields: 20 };

const unsupported = (msg: string) => new AppError(415, msg);

/** The file's text when it is what the platform needs; 415 otherwise. */
function fileText(platform: string, file: UploadedFile): string {
  const text = file.data.toString('utf8');
  const name = file.filename.toLowerCase();
  if (platform === 'ios') {
    if (!/\.(p8|pem)$/.test(name) || !text.trimStart().startsWith('-----BEGIN'))
      throw unsupported('The iOS key must be the .p8 file from App Store Connect (PEM text beginning with -----BEGIN PRIVATE KEY-----).');
    return text;
  }
  if (platform === 'android') {
    if (!/\.json$/.test(name)) throw unsupported('The Android credential must be the service account key as a .json file.');
    try {
      JSON.parse(text);
    } catch {
      throw unsupported('The .json file is not JSON: download the service account key again from Google Cloud.');
    }
    return text;
  }
  throw unsupported('The subscription provider key is pasted as text, not uploaded as a file.');
}

/** The upload as fields: the multipart form (files read as text after the type checks) or a JSON object; else 415. */
export async function uploadBody(ctx: AppContext): Promise<Record<string, unknown>> {
  if (ctx.is('multipart/form-data')) {
    const { fields, files } = await readMultipart(ctx, UPLOAD_LIMITS);
    if (ctx.state.csrfDeferred) checkSessionCsrf(ctx, fields.csrf);
    // A form's empty field is a field left out (an optional Apple id left empty is no Apple id).
    const body: Record<string, unknown> = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== ''));
    const file = files.find((f) => f.data.length > 0);
    if (file) body[fields.platform === 'android' ? 'service_account_json' : 'private_key'] = fileText(fields.platform ?? '', file);
    return body;
  }
  if (ctx.is('application/json')) {
    const body = ctx.state.body;
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ValidationError([bad('body', 'Send a JSON object')]);
    return body as Record<string, unknown>;
  }
  throw unsupported('Send the upload form (multipart/form-data) or a JSON object (application/json).');
}

/**
 * A refused file (415) with other fields of the form wrong too: one 422 listing them all, so the page shows every
 * problem at once. A wrong file alone stays 415.
 */
function withFieldProblems(err: unknown, fields: Record<string, string> | undefined): unknown {
  if (!(err instanceof AppError) || err.status !== 415 || !fields || !isCredentialPlatform(fields.platform)) return err;
  const secretField = fields.platform === 'android' ? 'service_account_json' : 'private_key';
  const others = problemsFrom(() => CREDENTIAL_PARSERS[fields.platform as CredentialPlatform](fields)).filter(
    (p) => p.loc.at(-1) !== secretField,
  );
  return others.length === 0 ? err : new ValidationError([bad(secretField, String(err.detail)), ...others]);
}

export async function uploadCredentialHandler(ctx: AppContext): Promise<void> {
  const app = visibleTo(ctx, await findApp(ctx.deps.db, ctx.params.app_id as string), 'App');
  const box = ctx.secretBox;
  if (!box) throw new UnavailableError('Credential storage needs SVC_MASTER_KEY to be configured.');
  const body = await uploadBody(ctx).catch((err: unknown) => {
    throw withFieldProblems(err, ctx.state.uploadFields);
  });
  if (!isCredentialPlatform(body.platform)) throw new ValidationError([bad('platform', "One of 'ios', 'android', 'subprovider'")]);
  const parsed = CREDENTIAL_PARSERS[body.platform](body);
  await storeCredential({ db: ctx.deps.db, box }, { appId: app.id, credential: parsed });
  ctx.body = {
    stored: true,
    app_id: app.id,
    platform: parsed.platform,
    check_status: 'unchecked',
    next: `POST /api/apps/${app.id}/validate-store-credentials`,
  };
}
