// Creators and their codes (a creator's membership in a campaign).
import type { Knex } from 'knex';

export interface NewCreator { name: string; email?: string | null; socialHandle?: string | null; followerCount?: number | null }

/** Finds the creator by email (case-insensitive) or creates one: joining twice is the same person. */
export async function upsertCreator(db: Knex, c: NewCreator): Promise<{ id: string }> {
  if (c.email) {
    const existing = await db('creators').whereRaw('lower(email) = lower(?)', [c.email]).first<{ id: string } | undefined>('id');
    if (existing) return existing;
  }
  const [row] = await db('creators').insert({
    name: c.name, email: c.email ?? null, social_handle: c.socialHandle ?? null, follower_count: c.followerCount ?? null,
  }).returning<{ id: string }[]>(['id']);
  return row!;
}

export interface NewCreatorCode { appId: string; campaignId: string; creatorId: string; code: string; source: 'join' | 'invite' | 'seed' }

export async function addCreatorCode(db: Knex, c: NewCreatorCode): Promise<{ id: string; code: string }> {
  const [row] = await db('creator_codes').insert({
    app_id: c.appId, campaign_id: c.campaignId, creator_id: c.creatorId, code: c.code, source: c.source,
  }).returning<{ id: string; code: string }[]>(['id', 'code']);
  return row!;
}

export interface ActiveCreatorCode {
  creatorCodeId: string;
  code: string;
  appId: string;
  campaign: { id: string; name: string; description: string | null; commission_percentage: number; campaign_type: string };
  creator: { id: string; name: string; social_handle: string | null; follower_count: number | null };
}

/**
 * The creator code `code` (already cleaned up) of the app, when the code is active and its campaign is active:
 * codes attribute only while the campaign is active.
 */
export async function findActiveCreatorCode(db: Knex, appId: string, code: string): Promise<ActiveCreatorCode | undefined> {
  const row = await db('creator_codes as cc')
    .join('campaigns as c', 'c.id', 'cc.campaign_id')
    .join('creators as cr', 'cr.id', 'cc.creator_id')
    .where({ 'cc.app_id': appId, 'cc.code': code, 'cc.status': 'active', 'c.status': 'active' })
    .first<Record<string, unknown> | undefined>(
      'cc.id as creator_code_id', 'cc.code', 'cc.app_id', 'c.id as campaign_id', 'c.name as campaign_name',
      'c.description as campaign_description', 'c.commission_percentage', 'c.campaign_type', 'cr.id as creator_id',
      'cr.name as creator_name', 'cr.social_handle', 'cr.follower_count',
    );
  if (!row) return undefined;
  return {
    creatorCodeId: row.creator_code_id as string,
    code: row.code as string,
    appId: row.app_id as string,
    campaign: {
      id: row.campaign_id as string, name: row.campaign_name as string, description: (row.campaign_description as string | null) ?? null,
      commission_percentage: Number(row.commission_percentage), campaign_type: row.campaign_type as string,
    },
    creator: {
      id: row.creator_id as string, name: row.creator_name as string, social_handle: (row.social_handle as string | null) ?? null,
      follower_count: (row.follower_count as number | null) ?? null,
    },
  };
}

/** The creator when they hold a code (any state) in a campaign of the organization; undefined otherwise, as for no creator. */
export async function findCreatorInOrg(db: Knex, orgId: string, creatorId: string): Promise<{ id: string; name: string; email: string | null; social_handle: string | null } | undefined> {
  return db('creators as cr').where('cr.id', creatorId)
    .whereExists(db('creator_codes as cc').join('campaigns as ca', 'ca.id', 'cc.campaign_id').whereRaw('cc.creator_id = cr.id').where('ca.org_id', orgId).select(db.raw('1')))
    .first('cr.id', 'cr.name', 'cr.email', 'cr.social_handle');
}
