// The purchase inbox's writes (schema 0015; reads in db/purchase-inbox.ts), driven by actions/purchase-inbox.ts and
// the event's own transaction (actions/purchase-event/apply.ts). This module owns a row's states; callers name a
// transition and never write `status`, `attempts` or the back-off:
//   receiveIntoInbox      new -> waiting (a redelivery answers the row it has)
//   inboxDeliveredCte     waiting -> delivered, inside the event's own transaction (the usual way)
//   inboxHandedOver       waiting -> delivered after a hand-over that transaction did not mark (a repeat, a
//                         rejected or failed event); nothing when it did
//   inboxHandOverFailed   waiting, backed off; the later events of its conversion wait behind it
//   claimDueInboxRows     waiting, leased to one drainer pass
//   pruneDeliveredInboxRows  delivered -> deleted after the retention
import type { Knex } from 'knex';
import { preparedRows } from './prepared.js';
import type { PurchaseEvent } from '../lib/purchase-event.js';
import type { PurchaseInboxRow } from '../schema/types.js';
import type { WithStatement } from './purchase-events-writes.js';

export interface InboxEntry {
  appId: string;
  idempotencyKey: string;
  conversionKey: string;
  event: PurchaseEvent;
}

/**
 * Records the event unless it is in the inbox already (a redelivery); either way answers its row, and whether
 * events of its conversion that arrived earlier may still wait (read with the insert: almost always false).
 */
export interface InboxReceipt {
  row: PurchaseInboxRow;
  inserted: boolean;
  waitsBehind: boolean;
}

export async function receiveIntoInbox(db: Knex, e: InboxEntry): Promise<InboxReceipt> {
  const [row] = await preparedRows<PurchaseInboxRow & { waits_behind: boolean }>(
    db,
    db('purchase_inbox')
      .insert({
        app_id: e.appId,
        idempotency_key: e.idempotencyKey,
        conversion_key: e.conversionKey,
        event_type: e.event.type,
        event: JSON.stringify(e.event),
      })
      .onConflict(['app_id', 'idempotency_key'])
      .ignore()
      .returning([
        '*',
        db.raw(`exists (
    select 1 from purchase_inbox q where q.app_id = purchase_inbox.app_id and q.conversion_key = purchase_inbox.conversion_key
      and q.status = 'waiting' and q.id < purchase_inbox.id) as waits_behind`),
      ]),
  );
  if (row) {
    const { waits_behind: waitsBehind, ...inserted } = row;
    return { row: inserted, inserted: true, waitsBehind };
  }
  const existing = await db('purchase_inbox').where({ app_id: e.appId, idempotency_key: e.idempotencyKey }).first<PurchaseInboxRow>();
  return { row: existing, inserted: false, waitsBehind: existing.status === 'waiting' };
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

/** What a hand-over answered: the event's id, and whether the event's own transaction marked the row already. */
export interface HandOver {
  eventId: string;
  inboxDelivered?: boolean;
}

/**
 * The row was handed over. Usually its event's transaction marked it already (inboxDeliveredCte); otherwise (a
 * repeat, a rejected or failed event) it is marked here, so the drainer does not hand it over again needlessly.
 */
export async function inboxHandedOver(db: Knex, row: Pick<PurchaseInboxRow, 'id'>, handOver: HandOver): Promise<void> {
  if (handOver.inboxDelivered) return;
  await db('purchase_inbox')
    .where('id', row.id)
    .update({ status: 'delivered', delivered_at: db.fn.now(), purchase_event_id: handOver.eventId, last_error: null });
}

/**
 * A failed hand-over of `rows[0]`: it and the later rows of its conversion (`rows[1..]`, in arrival order) are tried
 * again after an exponential back-off (2, 4, 8 ... seconds, at most `maxSeconds`), the later ones as waiting behind it.
 */
export async function inboxHandOverFailed(db: Knex, rows: Pick<PurchaseInboxRow, 'id'>[], error: string, maxSeconds = 60): Promise<void> {
  const [failed] = rows;
  if (!failed) return;
  await db('purchase_inbox')
    .whereIn(
      'id',
      rows.map((r) => r.id),
    )
    .andWhere('status', 'waiting')
    .update({
      attempts: db.raw('attempts + 1'),
      last_error: db.raw('case when id = ? then ? else ? end', [
        failed.id,
        error.slice(0, 500),
        'waiting for an earlier event of its conversion',
      ]),
      next_attempt_at: db.raw('now() + make_interval(secs => least(?, power(2, least(attempts + 1, 20))))', [maxSeconds]),
    });
}

/**
 * Claims up to `limit` due rows for one drainer pass and leases them for `leaseSeconds` (a drainer that dies
 * leaves them to the next pass after that). A row is due when its time has come and no earlier row of its
 * conversion still waits for a later time (leased by another drainer, or backing off): a conversion's events
 * are handed over in arrival order. Runs after lockInboxClaims in one transaction (actions/purchase-inbox.ts
 * claimInboxRows) so two drainers never split one conversion between them; SKIP LOCKED steps over rows the API is updating right now.
 */
export async function claimDueInboxRows(trx: Knex.Transaction, limit: number, leaseSeconds: number): Promise<PurchaseInboxRow[]> {
  const { rows } = await trx.raw<{ rows: PurchaseInboxRow[] }>(
    `
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
      returning *`,
    [leaseSeconds, limit],
  );
  return rows.sort((a, b) => Number(a.id) - Number(b.id));
}

/** Serialises the drainers' claims until the end of `trx` (claimDueInboxRows runs after it in the same transaction). */
export async function lockInboxClaims(trx: Knex.Transaction): Promise<void> {
  await trx.raw("select pg_advisory_xact_lock(hashtext('svc:purchase-inbox:claim'))");
}

/**
 * Deletes up to `limit` rows delivered more than `days` ago, except those whose purchase event failed (the retry
 * command re-drives them from here). Returns how many went.
 */
export async function pruneDeliveredInboxRows(db: Knex, days: number, limit = 1000): Promise<number> {
  const { rowCount } = await db.raw<{ rowCount: number }>(
    `
    delete from purchase_inbox where id in (
      select i.id from purchase_inbox i
      where i.status = 'delivered' and i.delivered_at < now() - make_interval(days => ?)
        and not exists (select 1 from purchase_events e where e.id = i.purchase_event_id and e.processing_status = 'failed')
      limit ?)`,
    [days, limit],
  );
  return rowCount;
}
