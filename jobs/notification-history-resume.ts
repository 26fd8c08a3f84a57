// At worker start: every app whose iOS platform is store-direct gets its hourly App Store Notification History
// catch-up (apple-notification-history/{app_id}), idempotently: a running one is left alone. Covers apps switched
// before the catch-up existed and an activation whose start failed. Never fatal: what could not start is logged.
import type { WorkflowClient } from '@temporalio/client';
import type { Knex } from 'knex';
import { appsOnAppStore } from '../db/store-notifications.js';
import type { Logger } from '../runtime/logger.js';
import { ensureNotificationHistories } from '../workflow-clients/notification-history.js';

export async function resumeNotificationHistories(
  db: Knex,
  temporal: { workflow: WorkflowClient },
  taskQueue: string,
  intervalMs: number,
  logger: Logger,
): Promise<void> {
  try {
    const apps = await appsOnAppStore(db);
    const { started, failed } = await ensureNotificationHistories(temporal, taskQueue, apps, intervalMs);
    for (const f of failed) logger.error({ appId: f.appId, error: f.error }, 'notification history catch-up not started');
    if (apps.length) logger.info({ started, failed: failed.length }, 'notification history catch-ups ensured');
  } catch (err) {
    logger.error({ err }, 'notification history catch-ups not ensured at worker start');
  }
}
