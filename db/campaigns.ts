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

export interface PublicCampaign { id: string; name: string; description: string | null; commission_percentage: number }

/** Active public campaigns of an app (GET /sdk/campaigns): what an app may show in a "creators" screen. */
export async function listActivePublicCampaigns(db: Knex, appId: string): Promise<PublicCampaign[]> {
  const rows = await db('campaigns').where({ app_id: appId, status: 'active', campaign_type: 'public' })
    .orderBy('created_at', 'asc').select<{ id: string; name: string; description: string | null; commission_percentage: string }[]>(
      'id', 'name', 'description', 'commission_percentage');
  return rows.map((r) => ({ ...r, commission_percentage: Number(r.commission_percentage) }));
}
