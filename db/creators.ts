// Creators and their codes (a creator's membership in a campaign).
import type { Knex } from 'knex';
import { preparedRows } from './prepared.js';

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
  const [row] = await preparedRows<Record<string, unknown>>(
    db,
    db('creator_codes as cc')
      .join('campaigns as c', 'c.id', 'cc.campaign_id')
      .join('creators as cr', 'cr.id', 'cc.creator_id')
      .where({ 'cc.app_id': appId, 'cc.code': code, 'cc.status': 'active', 'c.status': 'active' })
      .limit(1)
      .select(
        'cc.id as creator_code_id',
        'cc.code',
        'cc.app_id',
        'c.id as campaign_id',
        'c.name as campaign_name',
        'c.description as campaign_description',
        'c.commission_percentage',
        'c.campaign_type',
        'cr.id as creator_id',
        'cr.name as creator_name',
        'cr.social_handle',
        'cr.follower_count',
      ),
  );
  if (!row) return undefined;
  return {
    creatorCodeId: row.creator_code_id as string,
    code: row.code as string,
    appId: row.app_id as string,
    campaign: {
      id: row.campaign_id as string,
      name: row.campaign_name as string,
      description: (row.campaign_description as string | null) ?? null,
      commission_percentage: Number(row.commission_percentage),
      campaign_type: row.campaign_type as string,
    },
    creator: {
      id: row.creator_id as string,
      name: row.creator_name as string,
      social_handle: (row.social_handle as string | null) ?? null,
      follower_count: (row.follower_count as number | null) ?? null,
    },
  };
}

/** The creator when they hold a code (any state) in a campaign of the organization; undefined otherwise, as for no creator. */
export async function findCreatorInOrg(
  db: Knex,
  orgId: string,
  creatorId: string,
): Promise<{ id: string; name: string; email: string | null; social_handle: string | null } | undefined> {
  return db('creators as cr')
    .where('cr.id', creatorId)
    .whereExists(
      db('creator_codes as cc')
        .join('campaigns as ca', 'ca.id', 'cc.campaign_id')
        .whereRaw('cc.creator_id = cr.id')
        .where('ca.org_id', orgId)
        .select(db.raw('1')),
    )
    .first('cr.id', 'cr.name', 'cr.email', 'cr.social_handle');
}

export interface CreatorContact {
  id: string;
  name: string;
  email: string | null;
  email_verified_at: Date | null;
  digest_unsubscribed_at: Date | null;
}

/** The creator who joined with this address (case-insensitive, one per address). */
export async function findCreatorByEmail(db: Knex, email: string): Promise<CreatorContact | undefined> {
  return db('creators')
    .whereRaw('lower(email) = lower(?)', [email])
    .first<CreatorContact | undefined>('id', 'name', 'email', 'email_verified_at', 'digest_unsubscribed_at');
}

export async function findCreatorContact(db: Knex, id: string): Promise<CreatorContact | undefined> {
  return db('creators')
    .where('id', id)
    .first<CreatorContact | undefined>('id', 'name', 'email', 'email_verified_at', 'digest_unsubscribed_at');
}

/** The app's codes among `codes`, whatever their status, with their creator (the demo history looks them up). */
export async function findCreatorCodes(
  db: Knex,
  appId: string,
  codes: readonly string[],
): Promise<{ id: string; code: string; creator_id: string }[]> {
  return db('creator_codes')
    .whereIn('code', codes)
    .where('app_id', appId)
    .select<{ id: string; code: string; creator_id: string }[]>('id', 'code', 'creator_id');
}

/** The creator a creator code (a membership) belongs to. */
export async function creatorOfCode(db: Knex, creatorCodeId: string): Promise<string> {
  const row = await db('creator_codes').where('id', creatorCodeId).first<{ creator_id: string }>('creator_id');
  return row.creator_id;
}

/** Whether the app has this creator code, whatever its status (a removed code keeps its name). */
export async function isCreatorCodeTaken(db: Knex, appId: string, code: string): Promise<boolean> {
  return (await db('creator_codes').where({ app_id: appId, code }).first('id')) !== undefined;
}
