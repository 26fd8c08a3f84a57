// POST /api/agent/apps/{app_id}/setup-subprovider (apps:write; tool svc_setup_subprovider): wires the subscription
// provider's webhook. `autowire` (default true) does it through the provider's REST API with the app's stored
// provider key (actions/subprovider-autowire.ts: the webhook secret is rotated and the new one goes only to the
// provider). Without a stored key, with autowire false, or when the provider fails, nothing is rotated and the
// answer carries numbered dashboard steps instead. Always: the webhook URL and the two subscriber attributes.
// No secret is ever in the answer.
import { findApp } from '../../db/apps.js';
import type { AppContext } from '../context.js';
import { requestLog } from '../middleware/request-context.js';
import { inputOf } from '../middleware/validate.js';
import { forgetAppCaches } from './app-caches.js';
import { nextAction } from './next-action.js';
import { visibleTo } from './principal.js';
import { autowireWebhook, INTEGRATION_NAME, type NotWired, type Wired } from '../../actions/subprovider-autowire.js';

const PROVIDER_ID = { type: 'string', minLength: 1, maxLength: 255, pattern: '^[A-Za-z0-9_-]+$' } as const;

export const setupSubproviderBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    autowire: {
      type: 'boolean',
      default: true,
      description:
        'Wire the webhook through the provider REST API with the stored ' +
        'provider key (default true); false answers the dashboard steps only',
    },
    project_id: { ...PROVIDER_ID, description: "The provider's project id (proj...); default: the only project the stored key reaches" },
    app_id_at_provider: {
      ...PROVIDER_ID,
      description:
        "Scope the webhook to one of the provider project's apps (app...); " +
        'default: every app of the project (an existing integration keeps its scope)',
    },
  },
} as const;

interface SetupInput {
  autowire: boolean;
  project_id?: string;
  app_id_at_provider?: string;
}

const SUBSCRIBER_ATTRIBUTES = ['svc_code', 'svc_referral'] as const;
const ATTRIBUTES_NOTE =
  'Set both on the subscriber before the first purchase, under the app user id the provider reports: svc_code = the ' +
  'uppercased referral code (the webhook reads it); svc_referral = the literal string "true", never a boolean (for your own ' +
  'targeting; not read). The SDK sets both through its subscriber-attribute setter callback.';

export async function setupSubproviderHandler(ctx: AppContext): Promise<void> {
  const app = visibleTo(ctx, await findApp(ctx.deps.db, ctx.params.app_id as string), 'App');
  const input = inputOf<SetupInput>(ctx);
  const webhookUrl = `${ctx.deps.config.BASE_URL}/api/webhooks/subprovider/${app.id}`;
  const outcome: Wired | NotWired = input.autowire
    ? await autowireWebhook(
        { db: ctx.deps.db, box: ctx.secretBox, apiRoot: ctx.deps.config.SUBPROVIDER_API_ROOT },
        { appId: app.id, webhookUrl, projectId: input.project_id, appIdAtProvider: input.app_id_at_provider },
      )
    : { wired: false, code: 'autowire_disabled', message: 'autowire is false: follow the steps.', retryable: false };
  if (outcome.wired) forgetAppCaches(ctx, app.id);
  else if (outcome.code !== 'autowire_disabled')
    requestLog(ctx).info({ app_id: app.id, reason: outcome.code }, 'subprovider webhook not autowired');
  const common = {
    app_id: app.id,
    autowired: outcome.wired,
    webhook_url: webhookUrl,
    subscriber_attributes: SUBSCRIBER_ATTRIBUTES,
    subscriber_attributes_note: ATTRIBUTES_NOTE,
    ...(/^https:\/\//.test(webhookUrl)
      ? {}
      : { warning: 'The webhook URL is not https: the provider can only reach a public https BASE_URL.' }),
  };
  ctx.body = outcome.wired ? { ...common, ...wiredAnswer(app.id, outcome) } : { ...common, ...stepsAnswer(app.id, webhookUrl, outcome) };
}

function wiredAnswer(appId: string, w: Wired) {
  return {
    authorization: 'set by the service',
    webhook_secret_rotated: true,
    webhook_connected: false,
    provider: {
      project_id: w.projectId,
      webhook_integration_id: w.integrationId,
      action: w.action,
      duplicate_integration_ids: w.duplicateIds,
    },
    reason: null,
    steps: [
      `1. In the subscription provider's dashboard open the project's Integrations, the ` +
        `webhook "${w.action === 'created' ? INTEGRATION_NAME : w.integrationId}", and send a ` +
        `TEST event: the service marks the webhook connected when it arrives (any later event does too).`,
      `2. Check: GET /api/agent/apps/${appId}/validation-status (svc_get_validation_status) shows webhook.connected true.`,
      '3. Make the app set the subscriber attributes svc_code and svc_referral (see subscriber_attributes_note).',
      `4. Prove the pipeline: POST /api/agent/apps/${appId}/test-integration (svc_test_integration; ` +
        `it completes no checklist step), then make a purchase in the app (a sandbox purchase is ` +
        `enough) and poll GET /api/agent/apps/${appId}/integration-status (svc_integration_status) until live.`,
    ],
    note:
      'The webhook secret was rotated and the new one sent only to the provider; the previous secret no longer works anywhere' +
      (w.duplicateIds.length > 0 ? ' (the duplicate integrations listed still send it: delete them in the provider dashboard).' : '.'),
  };
}

function stepsAnswer(appId: string, webhookUrl: string, n: NotWired) {
  const uploadKey = n.code === 'no_provider_key' || n.code === 'provider_key_unreadable' || n.code === 'provider_key_rejected';
  return {
    authorization: 'rotate with regenerate-webhook-secret and paste',
    webhook_secret_rotated: false,
    reason: { code: n.code, message: n.message, retryable: n.retryable, ...(n.projects ? { projects: n.projects } : {}) },
    steps: [
      `1. Get the webhook secret: POST /api/agent/apps/${appId}/regenerate-webhook-secret ` +
        `(svc_regenerate_webhook_secret) returns a new one once and the old one stops working; skip this if you ` +
        `still hold the current secret.`,
      "2. Open the subscription provider's dashboard, the project, Integrations, + New, Webhooks.",
      `3. Name it and set the webhook URL to ${webhookUrl}`,
      '4. Set the Authorization header value to "Bearer <webhook secret>".',
      '5. Send events for production and sandbox, for every app of the project (or the one this app is), all event types; save.',
      `6. Send a TEST event from the webhook's page: the service marks the webhook connected ` +
        `when it arrives (GET /api/agent/apps/${appId}/validation-status shows webhook.connected).`,
    ],
    ...(uploadKey
      ? {
          credential_upload: {
            ...nextAction('svc_get_credential_upload_link', { app_id: appId }),
            body: { platform: 'subprovider' },
            note:
              "To let the service wire the webhook itself: give the link to a human, who pastes the provider's " +
              'secret API key (sk_..., v2, write access to integrations); then call svc_setup_subprovider again.',
          },
        }
      : {}),
    ...(n.retryable ? { retry: 'Call svc_setup_subprovider again later, or follow the steps.' } : {}),
  };
}
