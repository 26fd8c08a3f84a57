// The commission log of a campaign for the agent API (GET /api/agent/campaigns/{campaign_id}/commissions): every
// commission row (earns and reversals) with the basis it was computed on and the amounts behind it
// (lib/commission-basis.ts), newest first. Read only.
import type { Knex } from 'knex';
import type { CommissionRow, Environment } from '../schema/types.js';

export type CommissionLogRow = Pick<
  CommissionRow,
  | 'id'
  | 'conversion_id'
  | 'purchase_event_id'
  | 'creator_id'
  | 'kind'
  | 'reverses_commission_id'
  | 'environment'
  | 'status'
  | 'review_state'
  | 'revenue_usd_micros'
  | 'commission_micros'
  | 'platform_fee_micros'
  | 'commission_percentage'
  | 'commission_basis'
  | 'basis_precision'
  | 'basis_gross_micros'
  | 'basis_tax_micros'
  | 'basis_store_fee_micros'
  | 'basis_base_micros'
  | 'created_at'
> & { event_type: string; transaction_id: string | null; store: string | null };

export async function listCampaignCommissions(
  db: Knex,
  campaignId: string,
  filter: { environment?: Environment; limit: number },
): Promise<CommissionLogRow[]> {
  const q = db('commissions as c')
    .join('purchase_events as p', 'p.id', 'c.purchase_event_id')
    .where('c.campaign_id', campaignId)
    .orderBy([
      { column: 'c.created_at', order: 'desc' },
      { column: 'c.id', order: 'desc' },
    ])
    .limit(filter.limit);
  if (filter.environment === 'PRODUCTION') void q.where('c.environment', 'PRODUCTION');
  else if (filter.environment) void q.whereNot('c.environment', 'PRODUCTION');
  return q.select<CommissionLogRow[]>(
    'c.id',
    'c.conversion_id',
    'c.purchase_event_id',
    'c.creator_id',
    'c.kind',
    'c.reverses_commission_id',
    'c.environment',
    'c.status',
    'c.review_state',
    'c.revenue_usd_micros',
    'c.commission_micros',
    'c.platform_fee_micros',
    'c.commission_percentage',
    'c.commission_basis',
    'c.basis_precision',
    'c.basis_gross_micros',
    'c.basis_tax_micros',
    'c.basis_store_fee_micros',
    'c.basis_base_micros',
    'c.created_at',
    'p.event_type',
    'p.transaction_id',
    'p.store',
  );
}
