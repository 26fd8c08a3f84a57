// The integration checklist (spec "States and transitions": 8 steps in order) decided from facts read about one app.
// Pure: the agent API's integration-status reads the facts, this module decides. Where the spec is silent:
// * Platforms in use are the ones the SDK initialized on, plus any platform switched to store-direct; before the
//   first init both mobile platforms count (nothing tells which ones the app ships on).
// * A platform's purchase validation is configured when, store-direct, its store credentials passed the live check
//   (`check_status` ok); otherwise (the subscription-provider path, also every web app) when the provider webhook is
//   connected (its TEST event) or any provider purchase webhook arrived, or the developer's server reports purchases
//   through the direct purchase webhook (POST /api/webhooks/purchase).
// * `subprovider_webhook_wired` applies only when a platform in use is not store-direct; with every platform in use
//   store-direct it is done with evidence `store-direct`. The direct purchase webhook also satisfies it.
// * `purchase_webhook_seen` counts purchase events (initial, renewal, one-time) that really arrived, sandbox
//   included; the synthetic purchase of test-integration does not count.
// * `attributed_conversion` and `attributed_conversion_count` count PRODUCTION attributed conversions only: sandbox
//   never counts in stats, and test-integration (sandbox) proves the pipeline but must not make an app live.
//   `live` is every step done, so it needs a production attributed conversion too.
import { isStoreDirect, STORE_VERIFIER } from './validation-providers.js';
import type { Platform } from '../schema/types.js';

export const CHECKLIST_STEPS = [
  'app_created', 'campaign_active', 'sdk_initialized', 'sdk_event_received', 'validation_configured',
  'subprovider_webhook_wired', 'purchase_webhook_seen', 'attributed_conversion',
] as const;
export type ChecklistStep = (typeof CHECKLIST_STEPS)[number];

/** Event types that are a purchase (the checklist's "purchase webhook"). */
export const PURCHASE_EVENT_TYPES = ['INITIAL_PURCHASE', 'RENEWAL', 'NON_RENEWING_PURCHASE'] as const;

const PLATFORMS: readonly Platform[] = ['ios', 'android', 'web'];

export interface SdkInitMeta { sdk_name?: string | null; sdk_version?: string | null; app_version?: string | null; at?: string }
interface Seen { at: Date | string; type?: string; environment?: string | null }

export interface IntegrationFacts {
  appId: string;
  appCreatedAt: Date | string;
  campaigns: { id: string; name: string; status: string }[];
  sdkInitializedAt: Date | string | null;
  /** apps.sdk_init_meta: platform -> what the SDK reported at its last init on that platform. */
  sdkInitMeta: Partial<Record<string, SdkInitMeta>>;
  providers: { ios_validation_provider: string | null; android_validation_provider: string | null };
  /** store_credentials.check_status per platform. */
  storeCredentials: Partial<Record<'ios' | 'android', string>>;
  webhookConnectedAt: Date | string | null;
  lastSdkEvent: Seen | null;
  lastProviderWebhook: Seen | null;
  lastDirectPurchase: Seen | null;
  /** Latest purchase event (PURCHASE_EVENT_TYPES) that arrived from outside (not test-integration). */
  lastPurchaseEvent: Seen | null;
  attributedConversions: { production: number; sandbox: number };
}

export interface ChecklistItem { step: ChecklistStep; done: boolean; evidence: string | null }
export interface NextAction { step: ChecklistStep; action: string; call: string }
export interface Checklist { live: boolean; checklist: ChecklistItem[]; next_actions: NextAction[] }

const iso = (d: Date | string) => new Date(d).toISOString();
const agentPath = (path: string) => `/api/agent${path}`;

/** Platforms the app is integrated on (see the header). */
export function platformsInUse(f: Pick<IntegrationFacts, 'sdkInitMeta' | 'providers'>): Platform[] {
  const used = PLATFORMS.filter((p) => f.sdkInitMeta[p] || isStoreDirect(p, f.providers));
  return used.length > 0 ? used : ['ios', 'android'];
}

interface PlatformPath { platform: Platform; storeDirect: boolean; configured: boolean; evidence: string }

function validationPath(f: IntegrationFacts, platform: Platform): PlatformPath {
  if (platform !== 'web' && isStoreDirect(platform, f.providers)) {
    const status = f.storeCredentials[platform];
    const verifier = STORE_VERIFIER[platform];
    return { platform, storeDirect: true, configured: status === 'ok', evidence: `${platform}: store-direct ${verifier}, credentials ${status ? (status === 'ok' ? 'green-checked' : status) : 'not uploaded'}` };
  }
  const server = serverPathEvidence(f);
  return { platform, storeDirect: false, configured: server !== null, evidence: `${platform}: subscription provider, ${server ?? 'no webhook seen yet'}` };
}

/** What proves the server-side purchase path (provider webhook or direct purchase webhook), or null. */
function serverPathEvidence(f: IntegrationFacts): string | null {
  if (f.webhookConnectedAt) return `webhook connected ${iso(f.webhookConnectedAt)}`;
  if (f.lastProviderWebhook) return `provider webhook ${f.lastProviderWebhook.type ?? 'event'} received ${iso(f.lastProviderWebhook.at)}`;
  if (f.lastDirectPurchase) return `direct purchase webhook (POST /api/webhooks/purchase) received ${iso(f.lastDirectPurchase.at)}`;
  return null;
}

function sdkInitEvidence(f: IntegrationFacts): string | null {
  if (!f.sdkInitializedAt) return null;
  const perPlatform = Object.entries(f.sdkInitMeta).filter(([, m]) => m).map(([platform, m]) =>
    `${platform}: ${m!.sdk_name ?? 'sdk'} ${m!.sdk_version ?? '?'}${m!.app_version ? ` (app ${m!.app_version})` : ''}${m!.at ? ` at ${iso(m!.at)}` : ''}`);
  return perPlatform.length > 0 ? perPlatform.join('; ') : `initialized ${iso(f.sdkInitializedAt)}`;
}

export function evaluateChecklist(f: IntegrationFacts, webhookUrl: string): Checklist {
  const app = (path: string) => agentPath(`/apps/${f.appId}${path}`);
  const active = f.campaigns.filter((c) => c.status === 'active');
  const activatable = f.campaigns.find((c) => c.status === 'draft' || c.status === 'paused');
  const paths = platformsInUse(f).map((p) => validationPath(f, p));
  const providerPaths = paths.filter((p) => !p.storeDirect);
  const server = serverPathEvidence(f);
  const { production, sandbox } = f.attributedConversions;
  const items: { step: ChecklistStep; done: boolean; evidence: string | null; action?: NextAction }[] = [
    { step: 'app_created', done: true, evidence: `app ${f.appId} created ${iso(f.appCreatedAt)}` },
    {
      step: 'campaign_active', done: active.length > 0,
      evidence: active.length > 0 ? `${active.length} active: ${active.map((c) => `${c.id} (${c.name})`).join(', ')}` : null,
      action: activatable
        ? { step: 'campaign_active', action: `Activate campaign ${activatable.id} (${activatable.status}) with status "active"; a 402 means the wallet is below the minimum escrow: get a top-up link for the human (POST ${agentPath('/wallet/topup-link')}) and retry.`, call: `POST ${agentPath(`/campaigns/${activatable.id}/status`)}` }
        : { step: 'campaign_active', action: `Create a campaign (POST ${app('/campaigns')}), then activate it with status "active" (POST ${agentPath('/campaigns/{campaign_id}/status')}).`, call: `POST ${app('/campaigns')}` },
    },
    {
      step: 'sdk_initialized', done: f.sdkInitializedAt !== null, evidence: sdkInitEvidence(f),
      action: { step: 'sdk_initialized', action: "Install the SDK in the app and call initialize with this app's SDK key at start-up (svc_scaffold_init); it posts /api/sdk/init.", call: 'SDK initialize (POST /api/sdk/init)' },
    },
    {
      step: 'sdk_event_received', done: f.lastSdkEvent !== null,
      evidence: f.lastSdkEvent ? `last ${f.lastSdkEvent.type} at ${iso(f.lastSdkEvent.at)}` : null,
      action: { step: 'sdk_event_received', action: 'Track a funnel event from the app, e.g. trackEvent("paywall_viewed") with the app user id; it posts /api/sdk/event.', call: 'SDK trackEvent (POST /api/sdk/event)' },
    },
    {
      step: 'validation_configured', done: paths.every((p) => p.configured), evidence: paths.map((p) => p.evidence).join('; '),
      action: {
        step: 'validation_configured',
        action: paths.filter((p) => !p.configured).map((p) => (p.storeDirect
          ? `${p.platform}: have the human upload the store credentials through the link from POST ${app('/credential-setup-link')}, then POST ${app('/validate-store-credentials')} until the check is green`
          : `${p.platform}: add the webhook ${webhookUrl} with Authorization "Bearer <webhook secret>" in the subscription provider (svc_setup_subprovider) and send its TEST event`)).join('; ') + '.',
        call: paths.some((p) => !p.configured && p.storeDirect) ? `POST ${app('/validate-store-credentials')}` : 'svc_setup_subprovider',
      },
    },
    {
      step: 'subprovider_webhook_wired', done: providerPaths.length === 0 || server !== null,
      evidence: providerPaths.length === 0 ? 'store-direct' : server,
      action: { step: 'subprovider_webhook_wired', action: `In the subscription provider add the webhook URL ${webhookUrl} with Authorization "Bearer <webhook secret>" (lost it? POST ${app('/regenerate-webhook-secret')}) and send a TEST event.`, call: 'svc_setup_subprovider' },
    },
    {
      step: 'purchase_webhook_seen', done: f.lastPurchaseEvent !== null,
      evidence: f.lastPurchaseEvent ? `last ${f.lastPurchaseEvent.type} (${f.lastPurchaseEvent.environment ?? 'PRODUCTION'}) received ${iso(f.lastPurchaseEvent.at)}` : null,
      action: {
        step: 'purchase_webhook_seen',
        action: providerPaths.length > 0
          ? `Make a purchase in the app (sandbox is fine): the subscription provider then sends INITIAL_PURCHASE to ${webhookUrl}; watch GET ${app('/events/recent')}.`
          : `Make a purchase in the app and report it with reportPurchase (POST /api/sdk/purchase); watch GET ${app('/events/recent')}.`,
        call: `GET ${app('/events/recent')}`,
      },
    },
    {
      step: 'attributed_conversion', done: production > 0,
      evidence: production > 0 ? `${production} production attributed conversion(s)` : sandbox > 0 ? `only sandbox so far: ${sandbox} attributed sandbox conversion(s)` : null,
      action: {
        step: 'attributed_conversion',
        action: `${sandbox > 0 ? 'The pipeline works in sandbox. ' : `Prove the pipeline with a sandbox purchase: POST ${app('/test-integration')}. `}Then a production purchase by a user who came through a creator link or entered a creator code (the SDK sets svc_code) makes the app live; check the user with GET ${app('/verify-user-conversions')}?app_user_id=...`,
        call: sandbox > 0 ? `GET ${app('/verify-user-conversions')}` : `POST ${app('/test-integration')}`,
      },
    },
  ];
  return {
    live: items.every((i) => i.done),
    checklist: items.map(({ step, done, evidence }) => ({ step, done, evidence })),
    next_actions: items.flatMap((i) => (!i.done && i.action ? [i.action] : [])),
  };
}
