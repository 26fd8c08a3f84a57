// POST /api/webhooks/subprovider/{app_id} and the generic POST /api/webhooks/subprovider (the app is found from the
// secret). Order: the app (404), the Authorization header (401, counted per app, body says how to fix it), the
// body (400 not JSON, 422 not an event), then the conversion pipeline.
import { findAppByCredentialHash } from '../../activities/db/credentials.js';
import { countRejectedWebhook } from '../../activities/db/rejected-webhooks.js';
import { hashToken, parseBearer, tokenMatchesHash } from '../../lib/credentials.js';
import { BadRequestError, NotFoundError, UnauthorizedError } from '../../lib/errors.js';
import { normalizeSubproviderEvent, subproviderWebhookBody } from '../../lib/purchase-event.js';
import { assertValid } from '../../lib/validation.js';
import type { AppContext } from '../context.js';
import { NOT_JSON } from '../middleware/json-body.js';
import { submitPurchaseEvent } from './submit-event.js';

const HOW_TO_FIX = 'Missing or wrong Authorization header. In the subscription provider\'s webhook settings set the ' +
  'Authorization header value to "Bearer <webhook secret>" (the rc_webhook_... secret shown once when the app was ' +
  'created; get a new one with POST /api/agent/apps/{app_id}/regenerate-webhook-secret).';

export async function subproviderWebhookForApp(ctx: AppContext): Promise<void> {
  const appId = ctx.params.appId as string;
  const app = await ctx.deps.db('apps').where('id', appId).first<{ id: string; webhook_secret_hash: string } | undefined>('id', 'webhook_secret_hash');
  if (!app) throw new NotFoundError(`No app with id ${appId}.`);
  const token = parseBearer(ctx.get('authorization'));
  if (!token || !tokenMatchesHash(token, app.webhook_secret_hash)) {
    await countRejectedWebhook(ctx.deps.db, app.id, token ? 'wrong_secret' : 'missing_authorization');
    throw new UnauthorizedError(HOW_TO_FIX);
  }
  ctx.body = await receive(ctx, app.id);
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
  return submitPurchaseEvent(ctx.deps, appId, normalizeSubproviderEvent(body, Date.now()));
}
