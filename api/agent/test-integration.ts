// POST /api/agent/apps/{app_id}/test-integration: runs the test-integration workflow (workflows/test-integration.ts)
// and answers with what the sandbox purchase did. Needs an active campaign with at least one creator code (409
// otherwise, before anything starts). Waits up to 25 s for the result; past that 503 says where to look.
import { randomBytes } from 'node:crypto';
import { findApp } from '../../db/apps.js';
import { findTestReferralCode } from '../../db/integration.js';
import { ConflictError } from '../../errors/http-errors.js';
import { failedForNoCreatorCode, startTestIntegration } from '../../workflow-clients/test-integration.js';
import { NO_TEST_CREATOR_CODE, testIntegrationWorkflowId, type TestIntegrationResult } from '../../workflows/test-integration-messages.js';
import { answerWithin } from '../answer-within.js';
import type { AppContext } from '../context.js';
import { nextAction } from './next-action.js';
import { visibleTo } from './principal.js';

export async function testIntegrationHandler(ctx: AppContext): Promise<void> {
  const app = visibleTo(ctx, await findApp(ctx.deps.db, ctx.params.app_id as string), 'App');
  if (!(await findTestReferralCode(ctx.deps.db, app.id))) throw noCreatorCode(app.id);
  const r = await runTestIntegration(ctx, app.id, randomBytes(8).toString('hex'));
  ctx.body = {
    run_id: r.runId,
    workflow_id: testIntegrationWorkflowId(app.id, r.runId),
    app_user_id: r.appUserId,
    campaign_id: r.campaignId,
    referral_code: r.referralCode,
    event_id: r.eventId,
    conversion_id: r.conversionId,
    conversion_workflow_id: r.conversionWorkflowId,
    attributed: r.attributed,
    environment: r.environment,
    status: r.status,
    error: r.error,
    passed: r.attributed && r.error === null,
    message: r.attributed
      ? `The sandbox purchase of ${r.appUserId} was attributed to ${r.referralCode} (commission ` +
        `simulated, no money moved). Check it with verify-user-conversions?app_user_id=${r.appUserId}. ` +
        'It proves the pipeline but completes no checklist step: a purchase ' +
        'in the app with a creator code (a sandbox purchase is enough) does.'
      : `The sandbox purchase was not attributed: ${r.error ?? 'unknown reason'}.`,
  };
}

async function runTestIntegration(ctx: AppContext, appId: string, runId: string): Promise<TestIntegrationResult> {
  const workflowId = testIntegrationWorkflowId(appId, runId);
  const next = nextAction('svc_verify_user_conversions', { app_id: appId });
  return answerWithin({
    begin: () =>
      startTestIntegration(ctx.deps.temporal, { taskQueue: ctx.deps.config.TEMPORAL_TASK_QUEUE, appId, runId }).then((handle) => {
        // The tool server streams the workflow's steps from here on (api/mcp/progress.ts).
        ctx.state.progress?.({ message: `started: workflow ${workflowId} (open it in the Temporal UI)`, workflowId });
        return handle.result();
      }),
    late: {
      detail:
        `The test purchase is still being processed ` +
        `(workflow ${workflowId}); check ${next.call}?app_user_id=svc_test_${runId} shortly.`,
      next,
    },
    // The campaign or its last code went away between the check above and the workflow's pick.
    refusal: (err) => (failedForNoCreatorCode(err) ? noCreatorCode(appId) : undefined),
    unavailable: {
      detail: 'The integration test could not run; try again.',
      log: 'test-integration workflow failed',
      context: { workflowId },
    },
    logger: ctx.deps.logger,
  });
}

function noCreatorCode(appId: string): ConflictError {
  const [activate, invite, joinLink] = (['svc_set_campaign_status', 'svc_invite_creator', 'svc_get_join_link'] as const).map((tool) =>
    nextAction(tool),
  );
  // A creator is what is missing most often (provision activates the campaign): the join link is the next action.
  return new ConflictError(
    `${NO_TEST_CREATOR_CODE.message}. Activate a campaign of app ${appId} (${activate!.call}) and ` +
      `get a creator in (${invite!.call}, or the public join page from ${joinLink!.call}), then retry.`,
  ).pointingAt(joinLink!);
}
