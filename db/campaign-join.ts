// The campaign as a creator joining it sees it (CONTRACT.md "Public creator join"); the join itself is written in
// db/campaign-join-writes.ts.
import type { Knex } from 'knex';

export interface JoinCampaign {
  id: string;
  app_id: string;
  app_slug: string;
  org_id: string;
  name: string;
  description: string | null;
  commission_percentage: number;
  campaign_type: string;
  status: string;
  /** locale -> localized copy (campaigns.i18n). */
  i18n: Record<string, { name?: unknown; description?: unknown } | undefined>;
}

/** The campaign as the join page and the join endpoint see it, whatever its status. */
export async function findCampaignForJoin(db: Knex, campaignId: string): Promise<JoinCampaign | undefined> {
  const row = await db('campaigns as k')
    .join('apps as a', 'a.id', 'k.app_id')
    .where('k.id', campaignId)
    .first<(Omit<JoinCampaign, 'commission_percentage'> & { commission_percentage: string }) | undefined>(
      'k.id',
      'k.app_id',
      'a.slug as app_slug',
      'k.org_id',
      'k.name',
      'k.description',
      'k.commission_percentage',
      'k.campaign_type',
      'k.status',
      'k.i18n',
    );
  return row && { ...row, commission_percentage: Number(row.commission_percentage) };
}
