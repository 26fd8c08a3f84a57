// Agent writes to a campaign: its terms (name, description, commission) and its status.
import type { Knex } from 'knex';

export interface CampaignTermsPatch { name?: string; description?: string | null; commission_percentage?: number }

const PATCHABLE: readonly (keyof CampaignTermsPatch)[] = ['name', 'description', 'commission_percentage'];

/** Applies the listed terms (other keys are ignored); returns whether the campaign exists. */
export async function updateCampaignTerms(db: Knex, campaignId: string, patch: CampaignTermsPatch): Promise<boolean> {
  const changes = Object.fromEntries(PATCHABLE.filter((k) => patch[k] !== undefined).map((k) => [k, patch[k]]));
  if (Object.keys(changes).length === 0) return (await db('campaigns').where('id', campaignId).first('id')) !== undefined;
  return (await db('campaigns').where('id', campaignId).update(changes)) === 1;
}

/** Moves the campaign to `status` (stamping when it happened); returns whether it changed. */
export async function setCampaignStatus(db: Knex, campaignId: string, status: 'active' | 'paused'): Promise<boolean> {
  const stamp = status === 'active' ? { activated_at: db.fn.now() } : { paused_at: db.fn.now() };
  return (await db('campaigns').where('id', campaignId).whereNot('status', status).update({ status, ...stamp })) === 1;
}

/** The oldest campaign of an app with this exact name, archived ones aside (provision matches campaigns by name). */
export async function findCampaignByName(db: Knex, appId: string, name: string): Promise<{ id: string; status: string } | undefined> {
  return db('campaigns').where({ app_id: appId, name }).whereNot('status', 'archived').orderBy('created_at').orderBy('id')
    .first<{ id: string; status: string } | undefined>('id', 'status');
}
