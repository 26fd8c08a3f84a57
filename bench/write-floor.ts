// The write floor of the SDK benchmark: bare Koa (bench/bare-koa.ts) plus one PostgreSQL insert per POST, through
// the pool `svc api` uses (runtime/db.ts createDb, DATABASE_POOL_MAX). What a client write costs beyond it is ours:
// auth, validation, dedup and the transaction of track-install or event. GET answers without touching the database.
import Koa from 'koa';
import { randomUUID } from 'node:crypto';
import { createDb } from '../runtime/db.js';

const TABLE = 'bench_write_floor';
const db = createDb(process.env.DATABASE_URL!, Number(process.env.DATABASE_POOL_MAX ?? 10));
// A scratch table in the benchmark's own database (dropped with it), shaped like an event row.
if (!(await db.schema.hasTable(TABLE))) {
  await db.schema.createTable(TABLE, (t) => {
    t.uuid('id').primary();
    t.text('app_user_id').notNullable();
    t.text('event_type').notNullable();
    t.jsonb('properties').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
}

const app = new Koa();
app.use(async (ctx) => {
  if (ctx.method === 'POST') {
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    await db(TABLE).insert({
      id: body.event_id ?? randomUUID(),
      app_user_id: String(body.app_user_id ?? 'bench'),
      event_type: String(body.event_type ?? 'bench'),
      properties: JSON.stringify(body.properties ?? {}),
    });
  }
  ctx.body = { ok: true, app_id: 'app_baseline', campaigns: [] };
});
app.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
