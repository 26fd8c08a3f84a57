// The per-app event stream of the dashboard's real-time view (schema migration 0024): `app_event_feed` numbers
// every arrival and outcome change of an SDK event or purchase event, in commit order per app. The rows it points
// at are read through events/recent's own queries (db/recent-events.ts), so the stream shows the same rows, with
// the same environment filter, as the agent API, plus the amounts only the dashboard shows (price, commission).
import type { Knex } from 'knex';
import {
  listPurchaseEventLog,
  listRecentSdkEvents,
  type EnvironmentFilter,
  type PurchaseEventView,
  type SdkEventView,
} from './recent-events.js';

export type FeedEntry = { seq: number; kind: 'sdk'; event: SdkEventView } | { seq: number; kind: 'purchase'; event: PurchaseEventView };

export interface FeedPage {
  entries: FeedEntry[];
  /** The last seq looked at (also past entries the filter dropped): where the next read starts. */
  cursor: number;
  /** Whether more entries follow right after `cursor` (the page was full). */
  more: boolean;
}

/** The highest seq of an app so far (0 before its first event). */
export async function latestFeedSeq(db: Knex, appId: string): Promise<number> {
  const row = await db('app_event_feed').where('app_id', appId).max<{ max: number | null }>('seq as max').first();
  return Number(row?.max ?? 0);
}

/**
 * The live events page's first rows and the feed position its stream continues from, read in one snapshot
 * (repeatable read): nothing in between is lost or repeated. One connection: the three reads go one after the other.
 */
export async function eventLogSnapshot(
  db: Knex,
  appId: string,
  opts: { environment?: EnvironmentFilter; limit: number },
): Promise<{ cursor: number; sdk: SdkEventView[]; purchases: PurchaseEventView[] }> {
  return db.transaction(
    async (trx) => ({
      cursor: await latestFeedSeq(trx, appId),
      sdk: await listRecentSdkEvents(trx, appId, opts),
      purchases: await listPurchaseEventLog(trx, appId, { ...opts, amounts: true }),
    }),
    { isolationLevel: 'repeatable read', readOnly: true },
  );
}

/** The app's stream after `after`, oldest first, at most `limit` feed rows, each with its row as events/recent shows it. */
export async function readFeedAfter(
  db: Knex,
  appId: string,
  opts: { after: number; environment?: EnvironmentFilter; limit: number },
): Promise<FeedPage> {
  const feed = await db('app_event_feed')
    .where('app_id', appId)
    .andWhere('seq', '>', opts.after)
    .orderBy('seq')
    .limit(opts.limit)
    .select<{ seq: number; kind: 'sdk' | 'purchase'; event_id: string }[]>('seq', 'kind', 'event_id');
  if (feed.length === 0) return { entries: [], cursor: opts.after, more: false };
  const idsOf = (kind: string) => [...new Set(feed.filter((f) => f.kind === kind).map((f) => f.event_id))];
  const [sdkIds, purchaseIds] = [idsOf('sdk'), idsOf('purchase')];
  const [sdk, purchases] = await Promise.all([
    sdkIds.length ? listRecentSdkEvents(db, appId, { environment: opts.environment, eventIds: sdkIds, limit: sdkIds.length }) : [],
    purchaseIds.length
      ? listPurchaseEventLog(db, appId, { environment: opts.environment, eventIds: purchaseIds, limit: purchaseIds.length, amounts: true })
      : [],
  ]);
  const sdkById = new Map(sdk.map((e) => [e.event_id, e]));
  const purchaseById = new Map(purchases.map((e) => [e.event_id, e]));
  const entries: FeedEntry[] = [];
  for (const f of feed) {
    const sdkEvent = f.kind === 'sdk' ? sdkById.get(f.event_id) : undefined;
    const purchase = f.kind === 'purchase' ? purchaseById.get(f.event_id) : undefined;
    if (sdkEvent) entries.push({ seq: f.seq, kind: 'sdk', event: sdkEvent });
    else if (purchase) entries.push({ seq: f.seq, kind: 'purchase', event: purchase });
  }
  return { entries, cursor: feed.at(-1)!.seq, more: feed.length === opts.limit };
}

/** The Temporal workflow id of each conversion named (the dashboard links purchases to their workflow). */
export async function conversionWorkflowIds(db: Knex, conversionIds: readonly string[]): Promise<Map<string, string>> {
  if (conversionIds.length === 0) return new Map();
  const rows = await db('conversions')
    .whereIn('id', conversionIds)
    .whereNotNull('workflow_id')
    .select<{ id: string; workflow_id: string }[]>('id', 'workflow_id');
  return new Map(rows.map((r) => [r.id, r.workflow_id]));
}
