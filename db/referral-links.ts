// What a referral link visit needs to know, in one round trip: the app behind the slug (its store and web URLs)
// and the creator code, whatever its campaign's status (a paused campaign's link still leads to the app).
import type { Knex } from 'knex';
import type { LinkApp } from '../lib/referral-link.js';

export interface ReferralLink {
  app: LinkApp & { id: string; name: string };
  /** Absent when the app has no such code. */
  code?: { creatorCodeId: string; code: string; campaignId: string; status: string; campaignStatus: string };
}

/** The app with slug `slug` (stored lowercase) and its creator code `code` (already cleaned up), if any. */
export async function findReferralLink(db: Knex, slug: string, code: string): Promise<ReferralLink | undefined> {
  const row = await db('apps as a')
    .leftJoin('creator_codes as cc', function joinCode() {
      this.on('cc.app_id', 'a.id').andOn('cc.code', db.raw('?', [code]));
    })
    .leftJoin('campaigns as c', 'c.id', 'cc.campaign_id')
    .where('a.slug', slug)
    .first<Record<string, string | null> | undefined>(
      'a.id',
      'a.name',
      'a.ios_store_url',
      'a.android_store_url',
      'a.web_url',
      'cc.id as creator_code_id',
      'cc.code',
      'cc.status',
      'c.id as campaign_id',
      'c.status as campaign_status',
    );
  if (!row) return undefined;
  const app = {
    id: row.id!,
    name: row.name!,
    ios_store_url: row.ios_store_url ?? null,
    android_store_url: row.android_store_url ?? null,
    web_url: row.web_url ?? null,
  };
  if (!row.creator_code_id) return { app };
  return {
    app,
    code: {
      creatorCodeId: row.creator_code_id,
      code: row.code!,
      campaignId: row.campaign_id!,
      status: row.status!,
      campaignStatus: row.campaign_status!,
    },
  };
}
