// Dashboard REST handlers that the agent API has no twin of: creating an app (a human's first step after sign-up;
// agents use provision), rotating the server-side purchase API key (a credential: humans only), and the setup
// page's data in one answer (GET /api/apps/{app_id}/setup: keys, webhook, checklist with the spec's troubleshooting
// causes, rejected webhooks, SDK-init freshness per platform, validation path per platform). The checklist and the
// validation status are the agent API's own computations (integrationStatusOf, validationStatusOf).
import { findApp, listAppInitFreshness, type AgentAppRow } from '../../../db/apps.js';
import { regeneratePurchaseApiKey, registerApp } from '../../../actions/apps.js';
import { ConflictError, NotFoundError, ValidationError } from '../../../errors/http-errors.js';
import { isUniqueViolation } from '../../../errors/pg-errors.js';
import { SLUG_RULES, slugify, slugProblem } from '../../../lib/slugs.js';
import { troubleshootingFor } from '../../../lib/troubleshooting.js';
import { forgetAppCaches } from '../../agent/app-caches.js';
import { appView } from '../../agent/apps.js';
import { integrationStatusOf } from '../../agent/integration-status.js';
import { orgIdsOf, visibleTo } from '../../agent/principal.js';
import { validationStatusOf } from '../../agent/validation-status.js';
import { FRESH_SECONDS } from '../../agent/whoami.js';
import { assertOrgAccess } from '../../auth/guard.js';
import type { AppContext } from '../../context.js';
import { inputOf } from '../../middleware/validate.js';

const url = { type: 'string', maxLength: 2048, pattern: '^https://' } as const;

export const createAppBody = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 200 },
    slug: { type: 'string', minLength: 1, maxLength: 63 },
    org_id: { type: 'string', minLength: 1, maxLength: 64 },
    ios_store_url: url,
    android_store_url: url,
    web_url: url,
  },
} as const;

interface NewAppInput {
  name: string;
  slug?: string;
  org_id?: string;
  ios_store_url?: string;
  android_store_url?: string;
  web_url?: string;
}

/** POST /api/apps: the new app's SDK key, webhook secret and purchase API key (the last two shown only here). */
export async function createAppHandler(ctx: AppContext): Promise<void> {
  const input = inputOf<NewAppInput>(ctx);
  const orgId = input.org_id ?? orgIdsOf(ctx)[0];
  assertOrgAccess(ctx.state.principal, orgId, 'Organization not found');
  const slug = input.slug ?? slugify(input.name);
  const problem = slugProblem(slug);
  if (problem)
    throw new ValidationError([
      { loc: ['body', 'slug'], msg: `${problem === 'reserved' ? 'This slug is reserved. ' : ''}${SLUG_RULES}`, type: 'value_error' },
    ]);
  try {
    const app = await registerApp(ctx.deps, {
      orgId: orgId!,
      name: input.name,
      slug,
      iosStoreUrl: input.ios_store_url,
      androidStoreUrl: input.android_store_url,
      webUrl: input.web_url,
    });
    ctx.status = 201;
    ctx.body = {
      app_id: app.id,
      slug: app.slug,
      sdk_key: app.sdkKey,
      webhook_secret: app.webhookSecret,
      purchase_api_key: app.purchaseApiKey,
      webhook_url: `${ctx.deps.config.BASE_URL}/api/webhooks/subprovider/${app.id}`,
      setup_page: `/dashboard/apps/${app.id}`,
      note: 'The webhook secret and the purchase API key are shown once; regenerate them on the setup page if lost.',
    };
  } catch (err) {
    if (isUniqueViolation(err, 'apps_slug_uq')) throw new ConflictError(`The slug "${slug}" is taken: pick another.`);
    throw err;
  }
}

/** POST /api/apps/{app_id}/regenerate-purchase-api-key: the old key stops working at once. */
export async function regeneratePurchaseKeyHandler(ctx: AppContext): Promise<void> {
  const app = visibleTo(ctx, await findApp(ctx.deps.db, ctx.params.app_id as string), 'App');
  const key = await regeneratePurchaseApiKey(ctx.deps, { appId: app.id });
  if (!key) throw new NotFoundError('App not found');
  forgetAppCaches(ctx, app.id);
  ctx.body = {
    app_id: app.id,
    purchase_api_key: key,
    endpoint: `${ctx.deps.config.BASE_URL}/api/webhooks/purchase`,
    note: 'Shown once: your server sends it as "Authorization: Bearer <purchase_api_key>". The previous key no longer works.',
  };
}

export async function setupOf(ctx: AppContext, app: AgentAppRow) {
  const [status, validation, freshness] = await Promise.all([
    integrationStatusOf(ctx, app),
    validationStatusOf(ctx, app),
    listAppInitFreshness(ctx.deps.db, [app.org_id]),
  ]);
  const storeDirect = Object.values(validation.platforms).some((p) => p.validation_path === 'store-direct');
  const now = Date.now();
  const meta = freshness.find((a) => a.app_id === app.id)?.sdk_init_meta ?? {};
  const sdkInit = Object.fromEntries(
    ['ios', 'android', 'web'].map((platform) => {
      const m = meta[platform];
      const age = m?.at ? Math.round((now - new Date(m.at).getTime()) / 1000) : null;
      return [
        platform,
        {
          initialized_at: m?.at ?? null,
          age_seconds: age,
          fresh: age !== null && age <= FRESH_SECONDS,
          sdk_name: m?.sdk_name ?? null,
          sdk_version: m?.sdk_version ?? null,
          app_version: m?.app_version ?? null,
        },
      ];
    }),
  );
  const actions = new Map(status.next_actions.map((a) => [a.step, a]));
  return {
    app: appView(ctx, app),
    sdk_key: app.sdk_key,
    webhook: validation.webhook,
    purchase_api: {
      endpoint: `${ctx.deps.config.BASE_URL}/api/webhooks/purchase`,
      key_prefix: 'it_srv_',
      regenerate: `POST /api/apps/${app.id}/regenerate-purchase-api-key`,
    },
    live: status.live,
    checklist: status.checklist.map((item) => ({
      ...item,
      ...(item.done
        ? {}
        : {
            next_action: actions.get(item.step)?.action ?? null,
            next_tool: actions.get(item.step)?.next_tool ?? null,
            call: actions.get(item.step)?.call ?? null,
            troubleshooting: troubleshootingFor(item.step, storeDirect),
          }),
    })),
    attributed_conversion_count: status.attributed_conversion_count,
    production_attributed_conversion_count: status.production_attributed_conversion_count,
    campaign_health: status.campaign_health,
    test_integration: status.test_integration,
    rejected_webhooks_today: validation.rejected_webhooks_today,
    sdk_init: sdkInit,
    validation: validation.platforms,
  };
}

export async function setupHandler(ctx: AppContext): Promise<void> {
  ctx.body = await setupOf(ctx, visibleTo(ctx, await findApp(ctx.deps.db, ctx.params.app_id as string), 'App'));
}
