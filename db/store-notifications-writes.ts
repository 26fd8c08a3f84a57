// The writes of store_notification_states (reads in db/store-notifications.ts): a notification taken in (through
// actions/store-notification-intake.ts), a TEST notification asked for, the store's history read.
import type { Knex } from 'knex';

const TABLE = 'store_notification_states';

function upsert(db: Knex, appId: string, source: string, columns: Record<string, unknown>) {
  return db(TABLE)
    .insert({ app_id: appId, source, ...columns })
    .onConflict(['app_id', 'source'])
    .merge(Object.keys(columns));
}

/** A verified notification was taken in (a TEST one also says the path is wired). */
export async function recordNotificationTakenIn(db: Knex, appId: string, source: string, opts: { test: boolean }): Promise<void> {
  const now = db.fn.now();
  await db(TABLE)
    .insert({ app_id: appId, source, last_received_at: now, ...(opts.test ? { test_received_at: now } : {}) })
    .onConflict(['app_id', 'source'])
    .merge({
      last_received_at: db.raw(`greatest(${TABLE}.last_received_at, excluded.last_received_at)`),
      ...(opts.test ? { test_received_at: db.raw('excluded.test_received_at') } : {}),
    });
}

/** The green-check asked the store for a TEST notification; answers when (the database's clock). */
export async function recordTestRequested(db: Knex, appId: string, source: string): Promise<Date> {
  const [row] = await upsert(db, appId, source, { test_requested_at: db.fn.now() }).returning<{ test_requested_at: Date }[]>(
    'test_requested_at',
  );
  return row!.test_requested_at;
}

/** A read of the store's history ended: it covered everything up to `syncedUntil`, or failed with `error`. */
export async function recordHistoryRead(
  db: Knex,
  appId: string,
  source: string,
  outcome: { syncedUntil: Date } | { error: string },
): Promise<void> {
  await upsert(
    db,
    appId,
    source,
    'syncedUntil' in outcome
      ? { history_synced_until: outcome.syncedUntil, history_error: null }
      : { history_error: outcome.error.slice(0, 1000) },
  );
}
