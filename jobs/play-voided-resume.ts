// At worker start: every app whose Android platform is store-direct gets its voided-purchases poll
// (play-voided-sync/{app_id}), idempotently: a running poll is left alone. Covers apps switched before the poll
// existed and an activation whose start of the poll failed. Never fatal: what could not start is logged.
import type { WorkflowClient } from '@temporalio/client';
import type { Knex } from 'knex';
import { appsOnGooglePlay } from '../db/play-voided.js';
import type { Logger } from '../runtime/logger.js';
import { ensurePlayVoidedSyncs } from '../workflow-clients/play-voided-sync.js';

export async function resumeVoidedPolls(
  db: Knex,
  temporal: { workflow: WorkflowClient },
  taskQueue: string,
  logger: Logger,
): Promise<void> {
  try {
    const apps = await appsOnGooglePlay(db);
    const { started, failed } = await ensurePlayVoidedSyncs(temporal, taskQueue, apps);
    for (const f of failed) logger.error({ appId: f.appId, error: f.error }, 'voided-purchases poll not started');
    if (apps.length) logger.info({ started, failed: failed.length }, 'voided-purchases polls ensured');
  } catch (err) {
    logger.error({ err }, 'voided-purchases polls not ensured at worker start');
  }
}
