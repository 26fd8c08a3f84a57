// GET /apps/{app_id}/validation-status (apps:read): per platform the purchase-validation path (`subprovider`: the
// subscription provider's webhooks; `store-direct`: this service verifies store receipts itself), the stored store
// credential's check (status, time, attempts, last error; never the secret or its ciphertext), whether the provider
// webhook is connected, and today's (UTC) rejected webhook calls by reason. The credential check shown is the latest
// green-check's outcome (written by the credential-check workflow). Per platform also the store's server
// notifications: whether any reached us (`wired`), the last, the TEST one the iOS green-check asks for, and the URL;
// iOS says when the app's Apple id, which production notifications need, is missing.
import { findApp, type AgentAppRow } from '../../db/apps.js';
import { listRejectedWebhooksToday } from '../../db/rejected-webhooks.js';
import { notificationWiring } from '../../db/store-notifications.js';
import { findStoreDirectSetup, listCredentialChecks, type CredentialCheckRow } from '../../db/store-credentials.js';
import type { AppContext } from '../context.js';
import { visibleTo } from './principal.js';

const PLATFORMS = ['ios', 'android'] as const;
/** Where each store's server notifications go (CONTRACT.md "Store notifications"), the app id appended. */
const NOTIFICATION_PATHS = { ios: '/api/webhooks/apple/', android: '/api/webhooks/google-play/' } as const;

const credentialView = (c: CredentialCheckRow | undefined) =>
  c
    ? {
        present: true,
        check_status: c.check_status,
        passed: c.check_status === 'ok',
        retryable: c.check_status === 'retryable',
        checked_at: c.checked_at,
        check_attempts: c.check_attempts,
        last_error: c.last_error,
        environment: c.environment,
        uploaded_at: c.updated_at,
      }
    : {
        present: false,
        check_status: null,
        passed: false,
        retryable: false,
        checked_at: null,
        check_attempts: 0,
        last_error: null,
        environment: null,
        uploaded_at: null,
      };

export async function validationStatusHandler(ctx: AppContext): Promise<void> {
  ctx.body = await validationStatusOf(ctx, visibleTo(ctx, await findApp(ctx.deps.db, ctx.params.app_id as string), 'App'));
}

/** The answer for an app the caller may see (also the dashboard's setup page). */
export async function validationStatusOf(ctx: AppContext, app: AgentAppRow) {
  const [credentials, rejected, notifications, iosSetup] = await Promise.all([
    listCredentialChecks(ctx.deps.db, app.id),
    listRejectedWebhooksToday(ctx.deps.db, app.id),
    notificationWiring(ctx.deps.db, app.id),
    findStoreDirectSetup(ctx.deps.db, app.id, 'ios'),
  ]);
  const byPlatform = new Map(credentials.map((c) => [c.platform, c]));
  const platforms = Object.fromEntries(
    PLATFORMS.map((platform) => {
      const provider = app[`${platform}_validation_provider`] as string | null;
      const storeDirect = provider !== null && provider !== 'subprovider';
      return [
        platform,
        {
          validation_path: storeDirect ? 'store-direct' : 'subprovider',
          provider: storeDirect ? provider : 'subprovider',
          store_credential: credentialView(byPlatform.get(platform)),
          ready: storeDirect ? byPlatform.get(platform)?.check_status === 'ok' : app.webhook_connected_at !== null,
          notifications: { ...notifications[platform], url: `${ctx.deps.config.BASE_URL}${NOTIFICATION_PATHS[platform]}${app.id}` },
          // Apple's verifier checks a production notification's app id: without it they are answered 503.
          ...(platform === 'ios'
            ? { app_apple_id_missing: byPlatform.get('ios')?.environment === 'PRODUCTION' && !iosSetup?.appAppleId }
            : {}),
        },
      ];
    }),
  );
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
