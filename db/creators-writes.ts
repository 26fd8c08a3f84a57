// Writes of creators (reads stay in db/creators.ts): finding-or-creating one, its codes, its address, its digest subscription.
import type { Knex } from 'knex';

export interface NewCreator {
  name: string;
  email?: string | null;
  socialHandle?: string | null;
  followerCount?: number | null;
}

/** Finds the creator by email (case-insensitive) or creates one: joining twice is the same person. */
export async function upsertCreator(db: Knex, c: NewCreator): Promise<{ id: string }> {
  if (c.email) {
    const existing = await db('creators').whereRaw('lower(email) = lower(?)', [c.email]).first<{ id: string } | undefined>('id');
    if (existing) return existing;
  }
  const [row] = await db('creators')
    .insert({
      name: c.name,
      email: c.email ?? null,
      social_handle: c.socialHandle ?? null,
      follower_count: c.followerCount ?? null,
    })
    .returning<{ id: string }[]>(['id']);
  return row!;
}

export interface NewCreatorCode {
  appId: string;
  campaignId: string;
  creatorId: string;
  code: string;
  source: 'join' | 'invite' | 'seed';
  /** The address and User-Agent the creator joined from (self-referral evidence, pruned by pruneJoinSightings). */
  joinIp?: string | null;
  joinUserAgent?: string | null;
}

export async function addCreatorCode(db: Knex, c: NewCreatorCode): Promise<{ id: string; code: string }> {
  const [row] = await db('creator_codes')
    .insert({
      app_id: c.appId,
      campaign_id: c.campaignId,
      creator_id: c.creatorId,
      code: c.code,
      source: c.source,
      // Only when given: a seed or a migration test writes rows at schemas older than the join address (0054).
      ...(c.joinIp !== undefined ? { join_ip: c.joinIp } : {}),
      ...(c.joinUserAgent !== undefined ? { join_user_agent: c.joinUserAgent?.slice(0, 500) ?? null } : {}),
    })
    .returning<{ id: string; code: string }[]>(['id', 'code']);
  return row!;
}

/** Forgets the join address and User-Agent of memberships joined more than `days` ago; answers how many. */
export async function pruneJoinSightings(db: Knex, days: number): Promise<number> {
  return db('creator_codes')
    .where('joined_at', '<', db.raw('now() - make_interval(days => ?)', [days]))
    .where((q) => void q.whereNotNull('join_ip').orWhereNotNull('join_user_agent'))
    .update({ join_ip: null, join_user_agent: null });
}

/** Stops (or, with `false`, resumes) the creator's digest mails. */
export async function setDigestSubscription(db: Knex, creatorId: string, subscribed: boolean): Promise<void> {
  await db('creators')
    .where('id', creatorId)
    .update({ digest_unsubscribed_at: subscribed ? null : db.fn.now() });
}

/**
 * Gives an address to a creator who has none and who joined a campaign of `orgId` (anyone else's creator is not
 * found). Answers the creator, or 'not_found', or 'has_email' when one was set meanwhile; a taken address throws the
 * unique violation of creators_email_lower_uq.
 */
export async function addCreatorEmail(
  trx: Knex.Transaction,
  orgId: string,
  creatorId: string,
  email: string,
): Promise<{ id: string; name: string } | 'not_found' | 'has_email'> {
  const creator = await trx('creators as c')
    .where('c.id', creatorId)
    .whereExists((q) => {
      void q
        .select(trx.raw('1'))
        .from('creator_codes as cc')
        .join('campaigns as k', 'k.id', 'cc.campaign_id')
        .whereRaw('cc.creator_id = c.id')
        .andWhere('k.org_id', orgId);
    })
    .forUpdate()
    .first<{ id: string; name: string; email: string | null } | undefined>('c.id', 'c.name', 'c.email');
  if (!creator) return 'not_found';
  if (creator.email) return 'has_email';
  await trx('creators').where('id', creatorId).update({ email });
  return { id: creator.id, name: creator.name };
}
