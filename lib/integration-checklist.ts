// The integration checklist (spec "States and transitions": 8 steps in order) decided from facts read about one app.
// Pure: the agent API's integration-status reads the facts, this module decides. Where the spec is silent:
// * Platforms in use are the ones the SDK initialized on, plus any platform switched to store-direct; before the
//   first init both mobile platforms count (nothing tells which ones the app ships on).
// * A platform's purchase validation is configured when, store-direct, its store credentials passed the live check
//   (`check_status` ok); otherwise (the subscription-provider path, also every web app) when the provider webhook is
//   connected (its TEST event) or any provider purchase webhook arrived, or the developer's server reports purchases
//   through the direct purchase webhook.
// * `subprovider_webhook_wired` applies only when a platform in use is not store-direct; with every platform in use
//   store-direct it is done with evidence `store-direct`. The direct purchase webhook also satisfies it.
// * The checklist proves the integration, it is not a statistic: `purchase_webhook_seen` and `attributed_conversion`
//   are done by purchases that came through the app's real path (the provider webhook, store-direct /sdk/purchase,
//   the direct purchase webhook) in ANY environment, sandbox included, so a developer proves an app with a sandbox
//   purchase. The synthetic purchase of test-integration never completes a step: it is told apart by the event's
//   source (`purchase_events.source = 'test_integration'`), not by its environment, and reported on its own
//   (integration-status `test_integration`). `live` is every step done. Stats, analytics and health stay
//   production-only (docs/decisions.md).
// * Each next action names its tool (`next_tool`) beside its REST call (`call`), both from the endpoint table
//   (the caller passes the lookup, api/agent/next-action.ts); app-side steps name the scaffold tool and the SDK call,
//   whose paths the caller passes too (`ClientPaths`): this module words rules, the API owns its routes.
import type { NextCall } from '../errors/http-errors.js';
import { isStoreDirect, STORE_VERIFIER } from './validation-providers.js';
import { apiEnvironment } from './api-environment.js';
import type { Platform } from '../schema/types.js';

export const CHECKLIST_STEPS = [
  'app_created',
  'campaign_active',
  'sdk_initialized',
  'sdk_event_received',
  'validation_configured',
  'subprovider_webhook_wired',
  'purchase_webhook_seen',
  'attributed_conversion',
] as const;
export type ChecklistStep = (typeof CHECKLIST_STEPS)[number];

/** Each step's plain title for the human setup page (the agent answers keep the step ids). */
export const CHECKLIST_TITLES: Record<ChecklistStep, string> = {
  app_created: 'Create the app',
  campaign_active: 'Create and activate a campaign',
  sdk_initialized: 'Add the SDK to your app',
  sdk_event_received: 'Open the app once',
  validation_configured: 'Choose how purchases are checked',
  subprovider_webhook_wired: "Connect your subscription provider's webhook",
  purchase_webhook_seen: 'Make a purchase in your app',
  attributed_conversion: 'See a purchase credited to a creator',
};

/** Event types that are a purchase (the checklist's "purchase webhook"). */
export const PURCHASE_EVENT_TYPES = ['INITIAL_PURCHASE', 'RENEWAL', 'NON_RENEWING_PURCHASE'] as const;

const PLATFORMS: readonly Platform[] = ['ios', 'android', 'web'];

export interface SdkInitMeta {
  sdk_name?: string | null;
  sdk_version?: string | null;
  app_version?: string | null;
  at?: string;
}
interface Seen {
  at: Date | string;
  type?: string;
  environment?: string | null;
}

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
  /** Attributed conversions opened by a purchase through the app's real path (never test-integration): all, production. */
  attributedConversions: { realPath: number; production: number };
  /** The latest test-integration purchase, if any ran. */
  lastTestIntegration: { at: Date | string; attributed: boolean } | null;
  /** Store-direct platforms: when the store's last server notification reached us (null: none yet). Evidence only. */
  notifications?: Partial<Record<'ios' | 'android', Date | string | null>>;
  /** Store-direct platforms: whether the store's server notifications are wired (one, or the test one, received). */
  notificationsWired?: Partial<Record<'ios' | 'android', boolean>>;
  /** Platforms with at least one active creator offer code (lib/sdk-less-attribution.ts). */
  activeOfferCodePlatforms?: ('ios' | 'android')[];
}

export interface ChecklistItem {
  step: ChecklistStep;
  done: boolean;
  evidence: string | null;
}
export interface NextAction extends NextCall {
  step: ChecklistStep;
  action: string;
}
export interface Checklist {
  live: boolean;
  checklist: ChecklistItem[];
  next_actions: NextAction[];
}
/** The next call of an agent tool (api/agent/next-action.ts `nextAction`). */
export type ToolCall = (tool: string, params?: Readonly<Record<string, string>>) => NextCall;

const iso = (d: Date | string) => new Date(d).toISOString();
/** The API's word for the last purchase's environment (an event without one was production). */
const lastEnvironment = (e: { environment?: string | null }) => apiEnvironment(e.environment ?? 'PRODUCTION');
/** Steps the app itself does: the scaffold that writes the code, and the SDK call it makes. */
const appSide = (call: string): NextCall => ({ next_tool: 'svc_scaffold_init', call });

/** Platforms the app is integrated on (see the header). */
export function platformsInUse(f: Pick<IntegrationFacts, 'sdkInitMeta' | 'providers'>): Platform[] {
  const used = PLATFORMS.filter((p) => f.sdkInitMeta[p] || isStoreDirect(p, f.providers));
  return used.length > 0 ? used : ['ios', 'android'];
}

interface PlatformPath {
  platform: Platform;
  storeDirect: boolean;
  configured: boolean;
  evidence: string;
}

function validationPath(f: IntegrationFacts, platform: Platform, client: ClientPaths): PlatformPath {
  if (platform !== 'web' && isStoreDirect(platform, f.providers)) {
    const status = f.storeCredentials[platform];
    const verifier = STORE_VERIFIER[platform];
    const notified = f.notifications?.[platform];
    // Evidence, never a condition: an app counts purchases from its own reports without notifications.
    const notifications = notified ? `store notifications wired (last received ${iso(notified)})` : 'store notifications not received yet';
    return {
      platform,
      storeDirect: true,
      configured: status === 'ok',
      evidence:
        `${platform}: store-direct ${verifier}, ` +
        `credentials ${status ? (status === 'ok' ? 'green-checked' : status) : 'not uploaded'}, ${notifications}`,
    };
  }
  const server = serverPathEvidence(f, client);
  return {
    platform,
    storeDirect: false,
    configured: server !== null,
    evidence: `${platform}: subscription provider, ${server ?? 'no webhook seen yet'}`,
  };
}

/** The client-side routes the checklist's texts name (api/agent/integration-status.ts passes them). */
export interface ClientPaths {
  sdkInit: string;
  sdkEvent: string;
  sdkPurchase: string;
  directPurchaseWebhook: string;
}

/** What proves the server-side purchase path (provider webhook or direct purchase webhook), or null. */
function serverPathEvidence(f: IntegrationFacts, paths: ClientPaths): string | null {
  if (f.webhookConnectedAt) return `webhook connected ${iso(f.webhookConnectedAt)}`;
  if (f.lastProviderWebhook) return `provider webhook ${f.lastProviderWebhook.type ?? 'event'} received ${iso(f.lastProviderWebhook.at)}`;
  if (f.lastDirectPurchase) return `direct purchase webhook (POST ${paths.directPurchaseWebhook}) received ${iso(f.lastDirectPurchase.at)}`;
  return null;
}

function sdkInitEvidence(f: IntegrationFacts): string | null {
  if (!f.sdkInitializedAt) return null;
  const perPlatform = Object.entries(f.sdkInitMeta)
    .filter(([, m]) => m)
    .map(([platform, m]) => {
      const app = m!.app_version ? ` (app ${m!.app_version})` : '';
      const at = m!.at ? ` at ${iso(m!.at)}` : '';
      return `${platform}: ${m!.sdk_name ?? 'sdk'} ${m!.sdk_version ?? '?'}${app}${at}`;
    });
  return perPlatform.length > 0 ? perPlatform.join('; ') : `initialized ${iso(f.sdkInitializedAt)}`;
}

export function evaluateChecklist(f: IntegrationFacts, webhookUrl: string, tool: ToolCall, client: ClientPaths): Checklist {
  const ofApp = { app_id: f.appId };
  const active = f.campaigns.filter((c) => c.status === 'active');
  const activatable = f.campaigns.find((c) => c.status === 'draft' || c.status === 'paused');
  const paths = platformsInUse(f).map((p) => validationPath(f, p, client));
  const providerPaths = paths.filter((p) => !p.storeDirect);
  const server = serverPathEvidence(f, client);
  const { realPath, production } = f.attributedConversions;
  const tested = f.lastTestIntegration;
  const setup = tool('svc_setup_subprovider', ofApp);
  const recent = tool('svc_recent_events', ofApp);
  const verify = tool('svc_verify_user_conversions', ofApp);
  const items: { step: ChecklistStep; done: boolean; evidence: string | null; action?: NextAction }[] = [
    { step: 'app_created', done: true, evidence: `app ${f.appId} created ${iso(f.appCreatedAt)}` },
    {
      step: 'campaign_active',
      done: active.length > 0,
      evidence: active.length > 0 ? `${active.length} active: ${active.map((c) => `${c.id} (${c.name})`).join(', ')}` : null,
      action: activatable
        ? {
            step: 'campaign_active',
            action:
              `Activate campaign ${activatable.id} (${activatable.status}) with status "active"; a 402 means the wallet is ` +
              `below the minimum escrow: get a top-up link for the human (${tool('svc_get_wallet_topup_link').call}) and retry.`,
            ...tool('svc_set_campaign_status', { campaign_id: activatable.id }),
          }
        : {
            step: 'campaign_active',
            action:
              `Create a campaign (${tool('svc_create_campaign', ofApp).call}), then ` +
              `activate it with status "active" (${tool('svc_set_campaign_status').call}).`,
            ...tool('svc_create_campaign', ofApp),
          },
    },
    {
      step: 'sdk_initialized',
      done: f.sdkInitializedAt !== null,
      evidence: sdkInitEvidence(f),
      action: {
        step: 'sdk_initialized',
        action:
          "Install the SDK in the app and call initialize with this app's SDK key " +
          `at start-up (svc_scaffold_init writes the code); it posts ${client.sdkInit}.`,
        ...appSide(`SDK initialize (POST ${client.sdkInit})`),
      },
    },
    {
      step: 'sdk_event_received',
      done: f.lastSdkEvent !== null,
      evidence: f.lastSdkEvent ? `last ${f.lastSdkEvent.type} at ${iso(f.lastSdkEvent.at)}` : null,
      action: {
        step: 'sdk_event_received',
        action:
          'Track a funnel event from the app, e.g. trackEvent("paywall_viewed") ' +
          `with the app user id (svc_scaffold_init writes it); it posts ${client.sdkEvent}.`,
        ...appSide(`SDK trackEvent (POST ${client.sdkEvent})`),
      },
    },
    {
      step: 'validation_configured',
      done: paths.every((p) => p.configured),
      evidence: paths.map((p) => p.evidence).join('; '),
      action: {
        step: 'validation_configured',
        action:
          paths
            .filter((p) => !p.configured)
            .map((p) =>
              p.storeDirect
                ? `${p.platform}: have the human upload the store credentials through the link ` +
                  `from ${tool('svc_get_credential_upload_link', ofApp).call}, ` +
                  `then ${tool('svc_validate_store_credentials', ofApp).call} until the check is green`
                : `${p.platform}: add the webhook ${webhookUrl} with Authorization "Bearer ` +
                  `<webhook secret>" in the subscription provider (${setup.call}) and send its TEST event`,
            )
            .join('; ') + '.',
        ...(paths.some((p) => !p.configured && p.storeDirect) ? tool('svc_validate_store_credentials', ofApp) : setup),
      },
    },
    {
      step: 'subprovider_webhook_wired',
      done: providerPaths.length === 0 || server !== null,
      evidence: providerPaths.length === 0 ? 'store-direct' : server,
      action: {
        step: 'subprovider_webhook_wired',
        action:
          `In the subscription provider add the webhook URL ${webhookUrl} with Authorization ` +
          `"Bearer <webhook secret>" (${setup.call} does it with a stored provider key; lost ` +
          `the secret? ${tool('svc_regenerate_webhook_secret', ofApp).call}) and send a TEST event.`,
        ...setup,
      },
    },
    {
      step: 'purchase_webhook_seen',
      done: f.lastPurchaseEvent !== null,
      evidence: f.lastPurchaseEvent
        ? `last ${f.lastPurchaseEvent.type} (${lastEnvironment(f.lastPurchaseEvent)}) received ${iso(f.lastPurchaseEvent.at)}`
        : null,
      action: {
        step: 'purchase_webhook_seen',
        action:
          (providerPaths.length > 0
            ? `Make a purchase in the app (a sandbox purchase is enough): the subscription ` +
              `provider then sends INITIAL_PURCHASE to ${webhookUrl}; watch ${recent.call}.`
            : `Make a purchase in the app (a sandbox purchase is enough) and report ` +
              `it with reportPurchase (POST ${client.sdkPurchase}); watch ${recent.call}.`) +
          ' The test-integration purchase does not complete this step.',
        ...recent,
      },
    },
    {
      step: 'attributed_conversion',
      done: realPath > 0,
      evidence:
        realPath > 0
          ? `${realPath} attributed conversion(s) through the app's purchase path (${production} production)`
          : tested
            ? `none through the app's purchase path yet; test-integration ran ${iso(tested.at)} ` +
              `(${tested.attributed ? 'attributed' : 'not attributed'}), which proves the pipeline but completes no step`
            : null,
      action: {
        step: 'attributed_conversion',
        action:
          (tested?.attributed
            ? 'The pipeline works (test-integration was attributed). '
            : `Prove the pipeline first with ${tool('svc_test_integration', ofApp).call} (it completes no step). `) +
          'Then make a purchase in the app (a sandbox purchase is enough) by a user who ' +
          'came through a creator link or entered a creator code (the SDK sets svc_code), or who redeemed a ' +
          "creator's store offer code (one App Store offer per creator: Apple sends only the offer's reference name): " +
          `its attributed conversion completes this step; check the user with ${verify.call}?app_user_id=...`,
        ...(tested?.attributed ? verify : tool('svc_test_integration', ofApp)),
      },
    },
  ];
  return {
    live: items.every((i) => i.done),
    checklist: items.map(({ step, done, evidence }) => ({ step, done, evidence })),
    next_actions: items.flatMap((i) => (!i.done && i.action ? [i.action] : [])),
  };
}
