// The purchase inbox (schema 0015): conversion events as received, written before they are handed to their
// conversion workflow, once per app and idempotency key. The API hands a new row over itself; the worker's drainer
// (jobs/inbox-drainer.ts) takes the rows the API could not hand over, in arrival order per conversion.
import type { Knex } from 'knex';
import type { PurchaseEvent } from '../lib/purchase-event.js';
import type { PurchaseInboxRow } from '../schema/types.js';
import type { WithStatement } from './purchase-events.js';

export interface InboxEntry { appId: string; idempotencyKey: string; conversionKey: string; event: PurchaseEvent }

/**
 * Records the event unless it is in the inbox already (a redelivery); either way answers its row, and whether
 * events of its conversion that arrived earlier may still wait (read with the insert: almost always false).
 */
export async function receiveIntoInbox(db: Knex, e: InboxEntry): Promise<{ row: PurchaseInboxRow; inserted: boolean; waitsBehind: boolean }> {
  const [row] = await db('purchase_inbox').insert({
    app_id: e.appId, idempotency_key: e.idempotencyKey, conversion_key: e.conversionKey, event_type: e.event.type, event: JSON.stringify(e.event),
  }).onConflict(['app_id', 'idempotency_key']).ignore().returning<(PurchaseInboxRow & { waits_behind: boolean })[]>(['*', db.raw(`exists (
    select 1 from purchase_inbox q where q.app_id = purchase_inbox.app_id and q.conversion_key = purchase_inbox.conversion_key
      and q.status = 'waiting' and q.id < purchase_inbox.id) as waits_behind`)]);
  if (row) {
    const { waits_behind: waitsBehind, ...inserted } = row;
    return { row: inserted, inserted: true, waitsBehind };
  }
  const existing = await db('purchase_inbox').where({ app_id: e.appId, idempotency_key: e.idempotencyKey }).first<PurchaseInboxRow>();
  return { row: existing, inserted: false, waitsBehind: existing.status === 'waiting' };
}

/** Events of the same conversion that arrived before `row` and still wait: they go first, to keep arrival order. */
export async function findEarlierWaiting(db: Knex, row: Pick<PurchaseInboxRow, 'id' | 'app_id' | 'conversion_key'>, limit = 50): Promise<PurchaseInboxRow[]> {
  return db('purchase_inbox').where({ app_id: row.app_id, conversion_key: row.conversion_key, status: 'waiting' }).andWhere('id', '<', row.id)
    .orderBy('id').limit(limit);
}

/**
 * A CTE for a statement of the event's own transaction: its inbox row (when it came through the inbox and still
 * waits) is marked delivered when the event is recorded, not in a separate write after the hand-over.
 */
export function inboxDeliveredCte(appId: string, idempotencyKey: string, purchaseEventId: string): WithStatement {
  return {
    name: 'inbox_delivered',
    sql: `update purchase_inbox set status = 'delivered', delivered_at = now(), purchase_event_id = ?, last_error = null
      where app_id = ? and idempotency_key = ? and status = 'waiting'`,
    bindings: [purchaseEventId, appId, idempotencyKey],
  };
}

export async function markInboxDelivered(db: Knex, id: number, purchaseEventId: string): Promise<void> {
  await db('purchase_inbox').where('id', id).update({ status: 'delivered', delivered_at: db.fn.now(), purchase_event_id: purchaseEventId, last_error: null });
}

/** A failed hand-over: try again after an exponential back-off (2, 4, 8 ... seconds, at most `maxSeconds`). */
export async function postponeInboxRow(db: Knex, id: number, error: string, maxSeconds = 60): Promise<void> {
  await db('purchase_inbox').where({ id, status: 'waiting' }).update({
    attempts: db.raw('attempts + 1'), last_error: error.slice(0, 500),
    next_attempt_at: db.raw('now() + make_interval(secs => least(?, power(2, least(attempts + 1, 20))))', [maxSeconds]),
  });
}

/**
 * Claims up to `limit` due rows for one drainer pass and leases them for `leaseSeconds` (a drainer that dies
 * leaves them to the next pass after that). A row is due when its time has come and no earlier row of its
 * conversion still waits for a later time (leased by another drainer, or backing off): a conversion's events
 * are handed over in arrival order. Claims are serialised (a transaction-scoped advisory lock) so two drainers
 * never split one conversion between them; SKIP LOCKED steps over rows the API is updating right now.
 */
export async function claimDueInboxRows(db: Knex, limit: number, leaseSeconds: number): Promise<PurchaseInboxRow[]> {
  return db.transaction(async (trx) => {
    await trx.raw("select pg_advisory_xact_lock(hashtext('svc:purchase-inbox:claim'))");
    const { rows } = await trx.raw<{ rows: PurchaseInboxRow[] }>(`
      update purchase_inbox set next_attempt_at = now() + make_interval(secs => ?)
      where id in (
        select p.id from purchase_inbox p
        where p.status = 'waiting' and p.next_attempt_at <= now()
          and not exists (
            select 1 from purchase_inbox q
            where q.status = 'waiting' and q.app_id = p.app_id and q.conversion_key = p.conversion_key
              and q.id < p.id and q.next_attempt_at > now())
        order by p.id
        limit ?
        for update of p skip locked)
      returning *`, [leaseSeconds, limit]);
    return rows.sort((a, b) => Number(a.id) - Number(b.id));
  });
}

export async function findInboxEntry(db: Knex, appId: string, idempotencyKey: string): Promise<PurchaseInboxRow | undefined> {
  return db('purchase_inbox').where({ app_id: appId, idempotency_key: idempotencyKey }).first();
}

export async function countWaitingInboxRows(db: Knex): Promise<number> {
  const row = await db('purchase_inbox').where('status', 'waiting').count<{ count: string }[]>('* as count').first();
  return Number(row?.count ?? 0);
}

/**
 * Deletes up to `limit` rows delivered more than `days` ago, except those whose purchase event failed (the retry
 * command re-drives them from here). Returns how many went.
 */
export async function pruneDeliveredInboxRows(db: Knex, days: number, limit = 1000): Promise<number> {
  const { rowCount } = await db.raw<{ rowCount: number }>(`
    delete from purchase_inbox where id in (
      select i.id from purchase_inbox i
      where i.status = 'delivered' and i.delivered_at < now() - make_interval(days => ?)
        and not exists (select 1 from purchase_events e where e.id = i.purchase_event_id and e.processing_status = 'failed')
      limit ?)`, [days, limit]);
  return rowCount;
}
