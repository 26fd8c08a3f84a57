// The owners' digest of new commission reviews (docs/fraud-signals.md "The owners' digest"): each owner of an
// organization gets at most one mail per period listing the reviews raised since their last digest, and none when
// there is nothing new. No table of its own: the owner's membership row is the claim (FOR UPDATE SKIP LOCKED, so
// several workers never mail one owner twice), and each digest sent leaves an audit entry (target
// `owner_review_digest`, `{org_id}:{user_id}`) naming the reviews it listed and the moment it read them: the next
// digest starts there. The mail goes through the email outbox (not counted in the organization's invite budget).
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { composeOwnerDigest, type OwnerDigestReview } from '../lib/owner-review-digest.js';
import { appendAudit } from './audit-log.js';
import { enqueueEmail } from './email-outbox-writes.js';

export interface OwnerDigestOptions {
  /** An owner gets at most one digest per this many milliseconds (a day; tests shorten it). */
  everyMs: number;
  dashboardUrl: string;
  limit?: number;
}

export const OWNER_DIGEST_TARGET = 'owner_review_digest';
/** Reviews listed in one mail; the rest are counted ("and N more") and are in the queue. */
export const OWNER_DIGEST_MAX_LINES = 50;
/**
 * A review's created_at is its transaction's start: one that started before a digest read the reviews and committed
 * after it has an older time than the digest. The next digest looks this far back before the last one's moment and
 * leaves out what a digest in that span already listed, so such a review is listed once, late, never lost (unless
 * its transaction ran longer than this).
 */
export const OWNER_DIGEST_OVERLAP_MS = 10 * 60_000;
/** Reviews older than this when an owner gets their first digest are not news any more (the queue lists them). */
export const OWNER_DIGEST_FIRST_LOOKBACK_DAYS = 7;

/** When a review is news: when it was raised, or when a flag became a hold (db/commission-reviews-writes.ts). */
const NEWS_AT = 'coalesce(r.escalated_at, r.created_at)';

/** The audit target of one owner's digests; the candidates' query spells it in SQL (org_id || ':' || user_id). */
const targetOf = (orgId: string, userId: string) => `${orgId}:${userId}`;

/** Composes the due owners' digests; answers how many mails it queued. */
export async function composeDueOwnerDigests(db: Knex, opts: OwnerDigestOptions): Promise<number> {
  // Candidates: the owners of organizations with a review raised lately (one that is older was in a digest already,
  // or the owner had none while it was new). Reviews are few: this reads them without an index on created_at.
  const lookbackSecs = OWNER_DIGEST_FIRST_LOOKBACK_DAYS * 86_400 + opts.everyMs / 1000;
  const due = await db('memberships as m')
    .where('m.role', 'owner')
    .whereExists((q) => {
      void q
        .select(db.raw('1'))
        .from('commission_reviews as r')
        .whereRaw('r.org_id = m.org_id')
        .whereRaw(`${NEWS_AT} > now() - make_interval(secs => ?)`, [lookbackSecs]);
    })
    // Mailed within the period: not due yet (checked again under the claim).
    .whereNotExists((q) => {
      void q
        .select(db.raw('1'))
        .from('audit_log as l')
        .where('l.target_type', OWNER_DIGEST_TARGET)
        .whereRaw(`l.target_id = m.org_id || ':' || m.user_id`)
        .whereRaw('l.created_at > now() - make_interval(secs => ?)', [opts.everyMs / 1000]);
    })
    .orderBy([{ column: 'm.org_id' }, { column: 'm.user_id' }])
    .limit(opts.limit ?? 100)
    .select<{ org_id: string; user_id: string }[]>('m.org_id', 'm.user_id');
  let queued = 0;
  for (const owner of due) if (await composeOne(db, owner.org_id, owner.user_id, opts)) queued++;
  return queued;
}

interface SentDigest {
  created_at: Date;
  details: { through?: string; review_ids?: string[] };
}

async function composeOne(db: Knex, orgId: string, userId: string, opts: OwnerDigestOptions): Promise<boolean> {
  return db.transaction(async (trx) => {
    // The membership row is the claim: a second worker skips this owner; a member no longer owner is skipped.
    const owner = await trx('memberships as m')
      .join('users as u', 'u.id', 'm.user_id')
      .join('organizations as o', 'o.id', 'm.org_id')
      .where({ 'm.org_id': orgId, 'm.user_id': userId, 'm.role': 'owner' })
      .forUpdate('m')
      .skipLocked()
      .first<{ email: string; org_name: string; owner_since: Date; now: Date } | undefined>(
        'u.email',
        'o.name as org_name',
        'm.created_at as owner_since',
        trx.raw('now() as now'),
      );
    if (!owner) return false;
    const target = targetOf(orgId, userId);
    const sent = () => trx('audit_log').where({ target_type: OWNER_DIGEST_TARGET, target_id: target });
    const last = await sent().orderBy('created_at', 'desc').first<SentDigest | undefined>('created_at', 'details');
    if (last && new Date(last.created_at).getTime() > new Date(owner.now).getTime() - opts.everyMs) return false;
    const since = last?.details.through
      ? new Date(new Date(last.details.through).getTime() - OWNER_DIGEST_OVERLAP_MS)
      : new Date(
          Math.max(new Date(owner.owner_since).getTime(), new Date(owner.now).getTime() - OWNER_DIGEST_FIRST_LOOKBACK_DAYS * 86_400_000),
        );
    // What the digests of the overlap already listed.
    const listed = last
      ? (await sent().where('created_at', '>=', since).select<SentDigest[]>('details')).flatMap((d) => d.details.review_ids ?? [])
      : [];
    const rows = await newReviews(trx, orgId, since, listed);
    if (rows.length === 0) return false;
    const reviews = rows.slice(0, OWNER_DIGEST_MAX_LINES);
    const mail = composeOwnerDigest(owner.org_name, reviews, { queue: `${opts.dashboardUrl}/reviews` }, rows.length - reviews.length);
    const ids = rows.map((r) => r.id);
    const key = createHash('sha256')
      .update([...ids].sort().join(','))
      .digest('hex')
      .slice(0, 32);
    const emailId = await enqueueEmail(trx, {
      orgId: null,
      to: owner.email,
      subject: mail.subject,
      bodyText: mail.body,
      template: 'owner_review_digest',
      templateData: { org_id: orgId, user_id: userId, reviews: ids.length },
      dedupKey: `owner-review-digest:${orgId}:${userId}:${key}`,
    });
    await appendAudit(trx, {
      orgId,
      actorType: 'system',
      actorId: null,
      action: 'commission_review.owner_digest_sent',
      targetType: OWNER_DIGEST_TARGET,
      targetId: target,
      details: { through: new Date(owner.now).toISOString(), review_ids: ids, email_id: emailId, user_id: userId },
    });
    return true;
  });
}

/** The organization's reviews raised after `since`, less those already listed; held first, then oldest first. */
async function newReviews(trx: Knex.Transaction, orgId: string, since: Date, listed: readonly string[]): Promise<OwnerDigestReview[]> {
  const q = trx('commission_reviews as r')
    .join('commissions as c', 'c.id', 'r.commission_id')
    .join('creators as p', 'p.id', 'r.creator_id')
    .join('campaigns as k', 'k.id', 'r.campaign_id')
    .join('apps as a', 'a.id', 'r.app_id')
    .where('r.org_id', orgId)
    .whereRaw(`${NEWS_AT} > ?`, [since])
    .orderByRaw("case when r.action = 'hold' then 0 else 1 end")
    .orderByRaw(`${NEWS_AT}, r.id`)
    .limit(1000)
    .select<(Omit<OwnerDigestReview, 'amount_micros'> & { amount_micros: string | number })[]>(
      'r.id',
      'r.action',
      'r.signals',
      'r.created_at',
      'c.commission_micros as amount_micros',
      'p.name as creator_name',
      'k.name as campaign_name',
      'a.name as app_name',
    );
  if (listed.length) void q.whereNotIn('r.id', listed);
  return (await q).map((r) => ({ ...r, amount_micros: Number(r.amount_micros) }));
}
