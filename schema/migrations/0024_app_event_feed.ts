import type { Knex } from 'knex';

// The dashboard's real-time events view (api/dashboard/apps/events-page.tsx) streams, per app, every SDK event and every
// purchase event as it arrives or changes outcome. `app_event_feed` is that stream's log: one row per event and
// committing transaction that created or changed it, numbered by `seq`, the stream's event id (`Last-Event-ID`).
//
// A resumed stream reads `seq > last id`, so within one app seq order must be commit order (else a row with a lower
// seq committing after a reader moved past it would be a gap). The rows are therefore written by DEFERRED
// constraint triggers, which run at commit time, under a per-app transaction advisory lock held until the commit
// ends: the next writer of that app takes its seq only after this one is visible. The same trigger sends
// `pg_notify('svc_app_events', '<app_id>:<seq>')`, which PostgreSQL delivers only if the transaction commits.

export async function up(knex: Knex): Promise<void> {
  await knex.raw('create sequence app_event_feed_seq');
  await knex.schema.createTable('app_event_feed', (t) => {
    t.bigInteger('seq').primary();
    t.text('app_id').notNullable().references('apps.id').onDelete('CASCADE');
    t.text('kind').notNullable().checkIn(['sdk', 'purchase'], 'app_event_feed_kind_check');
    // sdk_events.event_id (unique per app) or purchase_events.id: the `event_id` both lists of events/recent show.
    t.text('event_id').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['app_id', 'seq'], 'app_event_feed_app_seq_idx');
  });
  await knex.raw(`
    create function svc_feed_app_event() returns trigger
    language plpgsql
    as $$
    declare
      next_seq bigint;
      ref text;
    begin
      -- PL/pgSQL resolves record fields per statement: each table's id column is read in its own branch.
      if tg_argv[0] = 'sdk' then
        ref := new.event_id;
      else
        ref := new.id;
      end if;
      -- Deferred triggers run at commit, when the row is already final: one entry per event and transaction is
      -- enough (a purchase received and applied in one transaction would otherwise stream twice, identically).
      if current_setting('svc_feed.e' || md5(tg_argv[0] || ref), true) = '1' then
        return null;
      end if;
      perform set_config('svc_feed.e' || md5(tg_argv[0] || ref), '1', true);
      perform pg_advisory_xact_lock(hashtextextended('svc_app_events:' || new.app_id, 0));
      next_seq := nextval('app_event_feed_seq');
      insert into app_event_feed (seq, app_id, kind, event_id) values (next_seq, new.app_id, tg_argv[0], ref);
      perform pg_notify('svc_app_events', new.app_id || ':' || next_seq);
      return null;
    end
    $$
  `);
  await knex.raw(`create constraint trigger sdk_events_feed after insert on sdk_events
    deferrable initially deferred for each row execute function svc_feed_app_event('sdk')`);
  await knex.raw(`create constraint trigger purchase_events_feed after insert on purchase_events
    deferrable initially deferred for each row execute function svc_feed_app_event('purchase')`);
  // An outcome (attributed, organic, failed, its conversion) changes the row the view shows: it is streamed again.
  const cols = (row: string) =>
    ['processing_status', 'attributed', 'organic', 'referral_code', 'error', 'conversion_id'].map((c) => `${row}.${c}`).join(', ');
  await knex.raw(`create constraint trigger purchase_events_feed_outcome after update on purchase_events
    deferrable initially deferred for each row when ((${cols('old')}) is distinct from (${cols('new')}))
    execute function svc_feed_app_event('purchase')`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger purchase_events_feed_outcome on purchase_events');
  await knex.raw('drop trigger purchase_events_feed on purchase_events');
  await knex.raw('drop trigger sdk_events_feed on sdk_events');
  await knex.raw('drop function svc_feed_app_event()');
  await knex.schema.dropTable('app_event_feed');
  await knex.raw('drop sequence app_event_feed_seq');
}
