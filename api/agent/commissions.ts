// GET /api/agent/campaigns/{campaign_id}/commissions (MCP svc_list_commissions): the campaign's commissions, newest
// first, each with the `basis` it was computed on and the amounts behind it (`basis_amounts`: the price, the tax and
// the store's fee taken out, the base the percentage applied to, `exact` or `estimated`), in micro-USD. A reversal
// (refund) mirrors its commission's stored basis, negative.
import { findCampaign } from '../../db/campaigns.js';
import { listCampaignCommissions, type CommissionLogRow } from '../../db/commission-log.js';
import type { Environment } from '../../schema/types.js';
import type { AppContext } from '../context.js';
import { inputOf } from '../middleware/validate.js';
import { visibleTo } from './principal.js';

export const listCommissionsQuery = {
  type: 'object',
  properties: {
    environment: { enum: ['SANDBOX', 'PRODUCTION'], description: 'SANDBOX covers SANDBOX, XCODE and LOCAL_TESTING (default: both)' },
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 50 },
  },
} as const;

const micros = (v: unknown) => (v === null || v === undefined ? null : Number(v));

export function commissionView(c: CommissionLogRow) {
  return {
    id: c.id,
    kind: c.kind,
    reverses_commission_id: c.reverses_commission_id,
    conversion_id: c.conversion_id,
    purchase_event_id: c.purchase_event_id,
    event_type: c.event_type,
    transaction_id: c.transaction_id,
    store: c.store,
    creator_id: c.creator_id,
    environment: c.environment,
    status: c.status,
    review_state: c.review_state,
    revenue_micros: Number(c.revenue_usd_micros),
    commission_micros: Number(c.commission_micros),
    platform_fee_micros: Number(c.platform_fee_micros),
    commission_percentage: Number(c.commission_percentage),
    basis: c.commission_basis,
    basis_amounts: {
      precision: c.basis_precision,
      gross_micros: micros(c.basis_gross_micros),
      tax_micros: micros(c.basis_tax_micros),
      store_fee_micros: micros(c.basis_store_fee_micros),
      base_micros: micros(c.basis_base_micros),
    },
    created_at: c.created_at,
  };
}

export async function listCommissionsHandler(ctx: AppContext): Promise<void> {
  const campaign = visibleTo(ctx, await findCampaign(ctx.deps.db, ctx.params.campaign_id as string), 'Campaign');
  const query = inputOf<{ environment?: Environment; limit: number }>(ctx);
  const rows = await listCampaignCommissions(ctx.deps.db, campaign.id, query);
  ctx.body = { campaign_id: campaign.id, commissions: rows.map(commissionView), count: rows.length };
}
