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
