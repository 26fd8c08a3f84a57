// What every fault drill does around its fault: a funded account, `svc worker` and `svc api` as processes, a
// provider sending purchase webhooks under load until 30 % of the events are in; after the fault, the load finished
// and every event checked applied exactly once with the ledger exact.
import type { ExecutionContext } from 'ava';
import type { Knex } from 'knex';
import { randomBytes } from 'node:crypto';
import type { SeedResult } from '../../actions/seed.js';
import {
  assertExactlyOnce,
  fundGenerously,
  progressGate,
  Provider,
  purchaseWorkload,
  type DrillFigures,
  type Workload,
} from './provider.js';
import { seedAccount } from './seed.js';
import { startSvc, type SvcProcess } from './svc-processes.js';

export interface DrillOptions {
  db: Knex;
  databaseUrl: string;
  temporalAddress: string;
  subscriptions: number;
  retryScheduleMs: number[];
  senders?: number;
  giveUpAfterMs?: number;
  /** Start the API on this port (a drill that restarts it needs the same one). */
  apiPort?: number;
}

export interface Drill {
  seed: SeedResult;
  /** The environment of the svc processes, to start another one alike. */
  vars: Record<string, string>;
  api: SvcProcess;
  worker: SvcProcess;
  workload: Workload;
  provider: Provider;
  started: number;
  load: Promise<void>;
}

/** Starts the processes (pushed on `running`, for the caller's clean-up) and the load; resolves at 30 % progress. */
export async function startDrill(opts: DrillOptions, running: SvcProcess[]): Promise<Drill> {
  const seed = await seedAccount(opts.db);
  await fundGenerously(opts.db, seed.org_id);
  const vars = {
    DATABASE_URL: opts.databaseUrl,
    TEMPORAL_ADDRESS: opts.temporalAddress,
    TEMPORAL_TASK_QUEUE: `drill-${randomBytes(4).toString('hex')}`,
  };
  const worker = await startSvc('worker', vars);
  running.push(worker);
  const api = await startSvc('api', vars, opts.apiPort);
  running.push(api);
  const workload = purchaseWorkload(opts.subscriptions, seed.creator_code);
  const provider = new Provider({
    baseUrl: () => api.url,
    appId: seed.app_id,
    secret: seed.webhook_secret,
    retryScheduleMs: opts.retryScheduleMs,
    giveUpAfterMs: opts.giveUpAfterMs,
  });
  const gate = progressGate();
  const started = Date.now();
  const load = provider.run(workload, opts.senders ?? 8, gate.onProgress);
  await gate.reached(Math.floor(workload.distinct * 0.3));
  return { seed, vars, api, worker, workload, provider, started, load };
}

/** Waits for the load, then checks exactly-once and the ledger, and logs the figures. */
export async function finishDrill(
  t: ExecutionContext,
  db: Knex,
  drill: Drill,
  opts: { drainTimeoutMs?: number } = {},
): Promise<DrillFigures & { gaveUp: number }> {
  await drill.load;
  const figures = await assertExactlyOnce(t, db, drill.seed, drill.workload, drill.provider, opts);
  const gaveUp = drill.provider.deliveries.filter((d) => !d.acknowledged).length;
  t.log(
    `${figures.events} sends (${figures.distinct} distinct events, ${figures.paid} paid, ${figures.refunds} ` +
      `refunds${gaveUp ? `, ${gaveUp} given up by the provider` : ''}) ` +
      `in ${Math.round((Date.now() - drill.started) / 1000)} s; answers ${JSON.stringify(figures.statuses)}; ` +
      `reserved ${figures.reservedMicros} micro-USD`,
  );
  return { ...figures, gaveUp };
}

export async function stopAll(running: SvcProcess[]): Promise<void> {
  for (const p of running.reverse()) await p.kill('SIGTERM');
}
