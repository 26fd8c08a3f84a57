// Reviews of suspicious commissions (CONTRACT "Review of suspicious commissions", docs/fraud-signals.md "Review"):
// the reads of the queue, the agent API and the dashboard. Writes are db/commission-reviews-writes.ts.
import type { Knex } from 'knex';
import type { CommissionReviewRow, CommissionStatus, ReviewStatus } from '../schema/types.js';

export interface ReviewListItem extends CommissionReviewRow {
  amount_micros: string | number;
  commission_status: CommissionStatus;
  review_state: string | null;
  payable_at: Date | null;
  creator_name: string;
  campaign_name: string;
  app_name: string;
}

export interface ReviewFilter {
  status?: ReviewStatus;
  /** Only reviews with this signal among theirs. */
  signal?: string;
  creatorId?: string;
  appId?: string;
  /** Only held (action hold) or only flagged (action flag). */
  action?: 'hold' | 'flag';
  /** Only the reviews named (a bulk decision's confirmation). */
  ids?: readonly string[];
  limit?: number;
}

export const REVIEW_LIST_LIMIT = 200;

/**
 * A commission held for a person's decision, as a condition on the commissions alias `c`: still reserved (or
 * unfunded), never payable until approved. The money reads (portal, wallet) count it apart from the holding period.
 */
export const IN_REVIEW_SQL = (c: string) => `(${c}.review_state is not distinct from 'held' and ${c}.status in ('reserved', 'unfunded'))`;

function reviewsOf(db: Knex | Knex.Transaction) {
  return db('commission_reviews as r')
    .join('commissions as c', 'c.id', 'r.commission_id')
    .join('creators as p', 'p.id', 'r.creator_id')
    .join('campaigns as k', 'k.id', 'r.campaign_id')
    .join('apps as a', 'a.id', 'r.app_id')
    .select<ReviewListItem[]>(
      'r.*',
      'c.commission_micros as amount_micros',
      'c.status as commission_status',
      'c.review_state',
      'c.payable_at',
      'p.name as creator_name',
      'k.name as campaign_name',
      'a.name as app_name',
    );
}

/** An organization's reviews (or several organizations'), newest first (held before flagged among open ones). */
export async function listReviews(db: Knex, orgId: string | readonly string[], f: ReviewFilter = {}): Promise<ReviewListItem[]> {
  const q = reviewsOf(db).whereIn('r.org_id', typeof orgId === 'string' ? [orgId] : orgId);
  if (f.status) q.where('r.status', f.status);
  if (f.action) q.where('r.action', f.action);
  if (f.creatorId) q.where('r.creator_id', f.creatorId);
  if (f.appId) q.where('r.app_id', f.appId);
  if (f.ids) q.whereIn('r.id', f.ids);
  if (f.signal) q.whereRaw('r.signals @> ?::jsonb', [JSON.stringify([{ signal: f.signal }])]);
  return q
    .orderByRaw("case when r.status = 'open' and r.action = 'hold' then 0 else 1 end")
    .orderBy([
      { column: 'r.created_at', order: 'desc' },
      { column: 'r.id', order: 'desc' },
    ])
    .limit(Math.min(f.limit ?? REVIEW_LIST_LIMIT, REVIEW_LIST_LIMIT));
}

export async function findReview(db: Knex | Knex.Transaction, orgId: string, reviewId: string): Promise<ReviewListItem | undefined> {
  return reviewsOf(db).where({ 'r.org_id': orgId, 'r.id': reviewId }).first();
}

/** How many installs of the organization's apps arrived through an untrusted proxy in the last `days` (IP signals off). */
export async function untrustedProxyInstalls(db: Knex, orgId: string, days = 7): Promise<number> {
  const row = await db('installs as i')
    .join('apps as a', 'a.id', 'i.app_id')
    .where({ 'a.org_id': orgId, 'i.ip_via_untrusted_proxy': true })
    .where('i.created_at', '>', db.raw('now() - make_interval(days => ?)', [days]))
    .count<{ n: string }[]>('* as n');
  return Number(row[0]?.n ?? 0);
}

/** How many reviews wait for a decision (open holds), for badges and the digest. */
export async function countOpenHolds(db: Knex, orgId: string): Promise<number> {
  const row = await db('commission_reviews').where({ org_id: orgId, status: 'open', action: 'hold' }).count<{ n: string }[]>('* as n');
  return Number(row[0]?.n ?? 0);
}

export interface ReviewChoice {
  id: string;
  name: string;
}

/** The creators and apps an organization's reviews name, by name: the queue's filter choices. */
export async function reviewFilterChoices(db: Knex, orgId: string): Promise<{ creators: ReviewChoice[]; apps: ReviewChoice[] }> {
  const [creators, apps] = await Promise.all([
    db('creators as p')
      .whereIn('p.id', db('commission_reviews').where('org_id', orgId).select('creator_id'))
      .orderBy([{ column: 'p.name' }, { column: 'p.id' }])
      .select<ReviewChoice[]>('p.id', 'p.name'),
    db('apps as a')
      .whereIn('a.id', db('commission_reviews').where('org_id', orgId).select('app_id'))
      .orderBy([{ column: 'a.name' }, { column: 'a.id' }])
      .select<ReviewChoice[]>('a.id', 'a.name'),
  ]);
  return { creators, apps };
}
