// POST /api/webhooks/subprovider/{app_id} and the generic POST /api/webhooks/subprovider (the app is found from the
// secret). Order: the app (404), the Authorization header (401, counted per app, body says how to fix it), the
// body (400 not JSON, 422 not an event), then the conversion pipeline.
import { findAppByCredentialHash, findAppWebhookSecretHash } from '../../db/apps.js';
import { recordRejectedWebhook } from '../../actions/webhook-rejections.js';
import { hashToken, parseBearer, tokenMatchesHash } from '../../lib/credentials.js';
import { BadRequestError, NotFoundError, UnauthorizedError, ValidationError } from '../../errors/http-errors.js';
import { normalizeSubproviderEvent, subproviderWebhookBody } from '../../lib/purchase-event.js';
import { findUnstorable } from '../../lib/storable.js';
import { assertValid } from '../../lib/validation.js';
import type { AppContext } from '../context.js';
import { NOT_JSON } from '../middleware/json-body.js';
import { submitPurchaseEvent } from './submit-event.js';

const HOW_TO_FIX =
  "Missing or wrong Authorization header. In the subscription provider's webhook settings set the " +
  'Authorization header value to "Bearer <webhook secret>" (the rc_webhook_... secret shown once when the app was ' +
  'created; get a new one with POST /api/agent/apps/{app_id}/regenerate-webhook-secret).';

/** App ids are database-generated `app_<hex>`; anything else (a NUL byte, stray text) is no app without a query. */
export const APP_ID = /^[A-Za-z0-9_-]{1,64}$/;

export async function subproviderWebhookForApp(ctx: AppContext): Promise<void> {
  const appId = ctx.params.appId as string;
  const app = APP_ID.test(appId) ? await webhookSecretOf(ctx, appId) : undefined;
  if (!app)
    throw new NotFoundError('No app with this id. The webhook URL is /api/webhooks/subprovider/{app_id} with the id of an existing app.');
  const token = parseBearer(ctx.get('authorization'));
  if (!token || !tokenMatchesHash(token, app.hash)) {
    await recordRejectedWebhook(ctx.deps, { appId: app.appId, reason: token ? 'wrong_secret' : 'missing_authorization' });
    throw new UnauthorizedError(HOW_TO_FIX);
  }
  ctx.body = await receive(ctx, app.appId);
}

/** The app's webhook-secret digest, from the API's change-feed cache when it is live. */
async function webhookSecretOf(ctx: AppContext, appId: string): Promise<{ appId: string; hash: string } | undefined> {
  const hash = await ctx.caches.webhookSecrets.getOrLoad(
    appId,
    'hash',
    async () => (await findAppWebhookSecretHash(ctx.deps.db, appId))?.hash ?? null,
  );
  return hash === null ? undefined : { appId, hash };
}

export async function subproviderWebhook(ctx: AppContext): Promise<void> {
  const token = parseBearer(ctx.get('authorization'));
  const app = token ? await findAppByCredentialHash(ctx.deps.db, 'webhook_secret_hash', hashToken(token)) : undefined;
  if (!app) throw new UnauthorizedError(HOW_TO_FIX);
  ctx.body = await receive(ctx, app.appId);
}

async function receive(ctx: AppContext, appId: string) {
  if (ctx.state.bodyInvalid) throw new BadRequestError(NOT_JSON);
  const body = assertValid<{ event: Record<string, unknown> }>(subproviderWebhookBody, ctx.state.body);
  const unstorable = findUnstorable(body);
  if (unstorable) throw new ValidationError([unstorable]);
  return submitPurchaseEvent(ctx, appId, normalizeSubproviderEvent(body, Date.now()));
}
