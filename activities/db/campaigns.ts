// Campaigns.
import type { Knex } from 'knex';

export type CampaignType = 'public' | 'private' | 'invite_only' | 'FREE_ACCESS';
export type CampaignStatus = 'draft' | 'active' | 'paused' | 'archived';

export interface NewCampaign {
  appId: string;
  orgId: string;
  name: string;
  description?: string | null;
  campaignType: CampaignType;
  commissionPercentage: number;
  status?: CampaignStatus;
}

export async function createCampaign(db: Knex, c: NewCampaign): Promise<{ id: string; status: CampaignStatus }> {
  const status = c.status ?? 'draft';
  const [row] = await db('campaigns').insert({
    app_id: c.appId,
    org_id: c.orgId,
    name: c.name,
    description: c.description ?? null,
    campaign_type: c.campaignType,
    commission_percentage: c.commissionPercentage,
    status,
    activated_at: status === 'active' ? db.fn.now() : null,
  }).returning<{ id: string; status: CampaignStatus }[]>(['id', 'status']);
  return row!;
}
