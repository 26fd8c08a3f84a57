// POST /apps/{app_id}/validate-store-credentials (integration:verify): the live green-check of the uploaded store
// credential, the workflow credential-check/{app_id}/{platform} (a check already running is joined); the answer is
// its result (pass/fail, a human-readable reason, `retryable`: repeat while true), 503 past 25 s.
// POST /apps/{app_id}/activate-store-direct (apps:write): switch the platform to store-direct validation, only
// after the green-check passed, and start the platform's durable job (Android: the poll of Google's voided purchases;
// iOS: the hourly catch-up of Apple's Notification History). Neither answer ever
// holds a secret.
import { findApp } from '../../db/apps.js';
import { activateStoreDirect } from '../../actions/store-credentials.js';
import { credentialCheckStatus } from '../../db/store-credentials.js';
import { ConflictError, UnavailableError } from '../../errors/http-errors.js';
import { startCredentialCheck } from '../../workflow-clients/credential-check.js';
import { startPlayVoidedSync } from '../../workflow-clients/play-voided-sync.js';
import { startNotificationHistory } from '../../workflow-clients/notification-history.js';
import { credentialCheckWorkflowId, type CredentialCheckResult } from '../../workflows/credential-check-messages.js';
import { answerWithin } from '../answer-within.js';
import type { AppContext } from '../context.js';
import { inputOf } from '../middleware/validate.js';
import { nextAction } from './next-action.js';
import { forgetAppCaches } from './app-caches.js';
import { visibleTo } from './principal.js';
import type { StorePlatform } from '../../schema/types.js';

export const storePlatformBody = {
  type: 'object',
  additionalProperties: false,
  required: ['platform'],
  properties: { platform: { type: 'string', enum: ['ios', 'android'] } },
} as const;

function noCredential(appId: string, platform: StorePlatform): ConflictError {
  const next = nextAction('svc_get_credential_upload_link', { app_id: appId });
  return new ConflictError(`No ${platform} store credential was uploaded: use ${next.call} to get an upload link for a human.`).pointingAt(
    next,
  );
}

export async function validateStoreCredentialsHandler(ctx: AppContext): Promise<void> {
  const app = visibleTo(ctx, await findApp(ctx.deps.db, ctx.params.app_id as string), 'App');
  const { platform } = inputOf<{ platform: StorePlatform }>(ctx);
  if (!ctx.secretBox) throw new UnavailableError('Store credentials need SVC_MASTER_KEY to be configured.');
  if ((await credentialCheckStatus(ctx.deps.db, app.id, platform)) === undefined) throw noCredential(app.id, platform);
  const workflowId = credentialCheckWorkflowId(app.id, platform);
  const r = await checkResult(ctx, app.id, platform, workflowId);
  ctx.body = {
    platform,
    status: r.status,
    passed: r.passed,
    retryable: r.retryable,
    reason: r.reason,
    checked_at: r.checkedAt,
    workflow_id: workflowId,
    ...(r.passed ? {} : { error: r.reason }),
    ...(r.testNotification
      ? {
          test_notification: {
            requested_at: r.testNotification.requestedAt,
            received_at: r.testNotification.receivedAt,
            arrived: r.testNotification.receivedAt !== null,
          },
        }
      : {}),
  };
}

async function checkResult(ctx: AppContext, appId: string, platform: StorePlatform, workflowId: string): Promise<CredentialCheckResult> {
  const next = nextAction('svc_get_validation_status', { app_id: appId });
  return answerWithin({
    begin: () =>
      startCredentialCheck(ctx.deps.temporal, { taskQueue: ctx.deps.config.TEMPORAL_TASK_QUEUE, appId, platform }).then((handle) => {
        // The tool server streams the workflow's steps from here on (api/mcp/progress.ts).
        ctx.state.progress?.({ message: `started: workflow ${workflowId} (open it in the Temporal UI)`, workflowId });
        return handle.result();
      }),
    late: { detail: `The check is still running (workflow ${workflowId}); call again to join it, or read ${next.call} shortly.`, next },
    unavailable: {
      detail: 'The credential check could not run; try again.',
      log: 'credential check workflow failed',
      context: { workflowId },
    },
    logger: ctx.deps.logger,
  });
}

/**
 * The platform's durable job: Android refunds are seen by polling Google's voided purchases (workflow
 * play-voided-sync/{app_id}); iOS notifications missed during an outage are read from Apple's Notification History
 * every hour (workflow apple-notification-history/{app_id}). The switch is made either way: a job that could not
 * start now is started by the worker at its next start (logged here).
 */
async function startStoreJob(ctx: AppContext, appId: string, platform: StorePlatform): Promise<void> {
  const { temporal, config } = ctx.deps;
  try {
    if (platform === 'android') await startPlayVoidedSync(temporal, config.TEMPORAL_TASK_QUEUE, { appId });
    else
      await startNotificationHistory(temporal, config.TEMPORAL_TASK_QUEUE, {
        appId,
        intervalMs: config.APPLE_NOTIFICATION_HISTORY_INTERVAL_MS,
      });
  } catch (err) {
    ctx.deps.logger.error({ err, appId, platform }, 'store job not started; the worker starts it at its next start');
  }
}

export async function activateStoreDirectHandler(ctx: AppContext): Promise<void> {
  const app = visibleTo(ctx, await findApp(ctx.deps.db, ctx.params.app_id as string), 'App');
  const { platform } = inputOf<{ platform: StorePlatform }>(ctx);
  // Store-direct iOS purchases are signed JWS: without trusted Apple roots the service could not verify one.
  if (platform === 'ios' && !ctx.deps.config.APPLE_ROOT_CERTS) {
    throw new ConflictError(
      'iOS store-direct needs the server configured with APPLE_ROOT_CERTS ' +
        '(Apple Root CA - G3) to verify signed transactions; ask the operator.',
    );
  }
  const status = await credentialCheckStatus(ctx.deps.db, app.id, platform);
  if (status === undefined) throw noCredential(app.id, platform);
  if (status !== 'ok' || !(await activateStoreDirect(ctx.deps, { appId: app.id, platform }))) {
    const next = nextAction('svc_validate_store_credentials', { app_id: app.id });
    throw new ConflictError(
      `The ${platform} store credential has not passed its check (status: ${status}): run ${next.call} first.`,
    ).pointingAt(next);
  }
  forgetAppCaches(ctx, app.id);
  await startStoreJob(ctx, app.id, platform);
  ctx.body = { platform, store_direct: true };
}
