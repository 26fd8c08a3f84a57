// GET /api/agent/apps/{app_id}/events/recent?environment=SANDBOX|PRODUCTION&limit=1..100 (default 20): the latest
// custom SDK events and purchase webhooks, each list newest first and `limit` long at most. A webhook is either
// `attributed` (with its `referral_code`) or `organic` (`referral_code` null); events that belong to no purchase
// (TEST, ignored types) are neither. A webhook that could not be applied is `failed`, with its reason in `error`. An
// attributed one says how (`attribution_method`: `offer_code` when a creator's store offer code attributed it).
import { findApp } from '../../db/apps.js';
import {
  listPurchaseEventLog,
  listRecentSdkEvents,
  type EnvironmentFilter,
  type PurchaseEventView,
  type SdkEventView,
} from '../../db/recent-events.js';
import type { AppContext } from '../context.js';
import { inputOf } from '../middleware/validate.js';
import { visibleTo } from './principal.js';

export const recentEventsQuery = {
  type: 'object',
  properties: {
    environment: {
      enum: ['SANDBOX', 'PRODUCTION'],
      description: 'SANDBOX covers SANDBOX, XCODE and LOCAL_TESTING; SDK events carry no environment and are always listed',
    },
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 20, description: 'Events per list' },
  },
} as const;

interface RecentEventsQuery {
  environment?: EnvironmentFilter;
  limit: number;
}

export async function recentEventsHandler(ctx: AppContext): Promise<void> {
  const app = visibleTo(ctx, await findApp(ctx.deps.db, ctx.params.app_id as string), 'App');
  const query = inputOf<RecentEventsQuery>(ctx);
  const [sdkEvents, webhooks] = await Promise.all([
    listRecentSdkEvents(ctx.deps.db, app.id, query),
    listPurchaseEventLog(ctx.deps.db, app.id, query),
  ]);
  ctx.body = {
    app_id: app.id,
    environment: query.environment ?? null,
    sdk_events: sdkEvents.map(sdkEventView),
    webhooks: webhooks.map(webhookView),
  };
}

/** An SDK event as the API shows it: `environment` SANDBOX or PRODUCTION (or null), the store's own value left out. */
export function sdkEventView({ store_environment: _store, ...e }: SdkEventView) {
  return e;
}

/**
 * The spec's attribution flags: a code only on an attributed event (an organic one may have named an unknown code:
 * see `error`). `failed` marks an event that could not be applied (its reason in `error`) until an operator
 * re-drives it (`svc events retry`). The dashboard's amounts never pass: this is the spec's shape whatever was read.
 */
export function webhookView({
  conversion_id: _conversion,
  processing_status: status,
  price_usd_micros: _price,
  commission_micros: _commission,
  commission_basis: _basis,
  code_known: _known,
  review_state: _review,
  store_environment: _store,
  ...e
}: PurchaseEventView) {
  return {
    ...e,
    referral_code: e.attributed ? e.referral_code : null,
    attribution_method: e.attributed ? e.attribution_method : null,
    failed: status === 'failed',
  };
}
