// GET /apps/{app_id}/validation-status (apps:read): per platform the purchase-validation path (`subprovider`: the
// subscription provider's webhooks; `store-direct`: this service verifies store receipts itself), the stored store
// credential's check (status, time, attempts, last error; never the secret or its ciphertext), whether the provider
// webhook is connected, and today's (UTC) rejected webhook calls by reason. The credential check shown is the latest
// green-check's outcome (written by the credential-check workflow).
import { findApp, type AgentAppRow } from '../../db/apps.js';
import { listRejectedWebhooksToday } from '../../db/rejected-webhooks.js';
import { listCredentialChecks, type CredentialCheckRow } from '../../db/store-credentials.js';
import type { AppContext } from '../context.js';
import { visibleTo } from './principal.js';

const PLATFORMS = ['ios', 'android'] as const;

const credentialView = (c: CredentialCheckRow | undefined) => (c
  ? {
    present: true, check_status: c.check_status, passed: c.check_status === 'ok', retryable: c.check_status === 'retryable', checked_at: c.checked_at,
    check_attempts: c.check_attempts, last_error: c.last_error, environment: c.environment, uploaded_at: c.updated_at,
  }
  : { present: false, check_status: null, passed: false, retryable: false, checked_at: null, check_attempts: 0, last_error: null, environment: null, uploaded_at: null });

export async function validationStatusHandler(ctx: AppContext): Promise<void> {
  ctx.body = await validationStatusOf(ctx, visibleTo(ctx, await findApp(ctx.deps.db, ctx.params.app_id as string), 'App'));
}

/** The answer for an app the caller may see (also the dashboard's setup page). */
export async function validationStatusOf(ctx: AppContext, app: AgentAppRow) {
  const [credentials, rejected] = await Promise.all([listCredentialChecks(ctx.deps.db, app.id), listRejectedWebhooksToday(ctx.deps.db, app.id)]);
  const byPlatform = new Map(credentials.map((c) => [c.platform, c]));
  const platforms = Object.fromEntries(PLATFORMS.map((platform) => {
    const provider = app[`${platform}_validation_provider`] as string | null;
    const storeDirect = provider !== null && provider !== 'subprovider';
    return [platform, {
      validation_path: storeDirect ? 'store-direct' : 'subprovider',
      provider: storeDirect ? provider : 'subprovider',
      store_credential: credentialView(byPlatform.get(platform)),
      ready: storeDirect ? byPlatform.get(platform)?.check_status === 'ok' : app.webhook_connected_at !== null,
    }];
  }));
  const byReason = Object.fromEntries(rejected.map((r) => [r.reason, Number(r.count)]));
  return {
    app_id: app.id,
    platforms,
    webhook: {
      connected: app.webhook_connected_at !== null,
      connected_at: app.webhook_connected_at,
      url: `${ctx.deps.config.BASE_URL}/api/webhooks/subprovider/${app.id}`,
      subprovider_api_key_stored: byPlatform.has('subprovider'),
    },
    rejected_webhooks_today: {
      total: Object.values(byReason).reduce((a, b) => a + b, 0),
      by_reason: byReason,
      last_at: rejected.reduce<Date | null>((latest, r) => (!latest || r.last_at > latest ? r.last_at : latest), null),
    },
  };
}
