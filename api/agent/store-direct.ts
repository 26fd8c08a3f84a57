// POST /apps/{app_id}/validate-store-credentials (integration:verify): the live green-check of the uploaded store
// credential, run inside the request (10 s per store call); repeat while the answer is `retryable`.
// POST /apps/{app_id}/activate-store-direct (apps:write): switch the platform to store-direct validation, only
// after the green-check passed. Neither answer ever holds a secret.
import { findApp } from '../../db/apps.js';
import { activateStoreDirect, credentialCheckStatus } from '../../db/store-credentials.js';
import { checkStoreCredentials } from './store-credential-check.js';
import { ConflictError, UnavailableError } from '../../lib/errors.js';
import type { AppContext } from '../context.js';
import { inputOf } from '../middleware/validate.js';
import { forgetAppCaches } from './app-caches.js';
import { visibleTo } from './principal.js';
import type { StorePlatform } from '../../schema/types.js';

export const storePlatformBody = {
  type: 'object', additionalProperties: false, required: ['platform'],
  properties: { platform: { type: 'string', enum: ['ios', 'android'] } },
} as const;

const noCredential = (appId: string, platform: StorePlatform) => new ConflictError(
  `No ${platform} store credential was uploaded: use POST /api/agent/apps/${appId}/credential-setup-link to get an upload link for a human.`,
);

export async function validateStoreCredentialsHandler(ctx: AppContext): Promise<void> {
  const app = visibleTo(ctx, await findApp(ctx.deps.db, ctx.params.app_id as string), 'App');
  const { platform } = inputOf<{ platform: StorePlatform }>(ctx);
  const box = ctx.secretBox;
  if (!box) throw new UnavailableError('Store credentials need SVC_MASTER_KEY to be configured.');
  const result = await checkStoreCredentials({ db: ctx.deps.db, box, config: ctx.deps.config }, app.id, platform);
  if (!result) throw noCredential(app.id, platform);
  ctx.body = {
    platform, status: result.status, retryable: result.status === 'retryable', checked_at: result.checked_at,
    ...(result.error ? { error: result.error } : {}),
  };
}

export async function activateStoreDirectHandler(ctx: AppContext): Promise<void> {
  const app = visibleTo(ctx, await findApp(ctx.deps.db, ctx.params.app_id as string), 'App');
  const { platform } = inputOf<{ platform: StorePlatform }>(ctx);
  // Store-direct iOS purchases are signed JWS: without trusted Apple roots the service could not verify one.
  if (platform === 'ios' && !ctx.deps.config.APPLE_ROOT_CERTS) {
    throw new ConflictError('iOS store-direct needs the server configured with APPLE_ROOT_CERTS (Apple Root CA - G3) to verify signed transactions; ask the operator.');
  }
  const status = await credentialCheckStatus(ctx.deps.db, app.id, platform);
  if (status === undefined) throw noCredential(app.id, platform);
  if (status !== 'ok' || !(await activateStoreDirect(ctx.deps.db, app.id, platform))) {
    throw new ConflictError(`The ${platform} store credential has not passed its check (status: ${status}): run POST /api/agent/apps/${app.id}/validate-store-credentials first.`);
  }
  forgetAppCaches(ctx, app.id);
  ctx.body = { platform, store_direct: true };
}
