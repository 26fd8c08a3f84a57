// `npm run replay:record`: plays real conversion lifecycles through the real workflow, activities, PostgreSQL and
// Temporal dev server, and saves each workflow history under test/replay/histories/. The replay test runs them
// all on every `npm test`, so a workflow change that would break running conversions fails there. One history set
// per released version of the conversion workflow, named by it (`r1-*`, docs/purchase-pipeline.md "Workflow versions"): a release
// records its set under its own prefix and keeps the earlier ones while their patches are still in the code (a
// holding-period day lasts 100 ms here, so the default 30 days hold commissions for 3 s), `late-attribution` among them
// (the attributeLate update). Also the agent's
// end-to-end check, the voided-purchases poll (test/replay/record-voided-poll.ts) and auto-recharge-* (the
// auto-recharge workflow's two paths: charged at once; declined, waited, turned off), play-notification-* (the Google Play
// notification workflow, test/replay/record-play-notification.ts), payout-run-* and platform-balance-check
// (test/replay/record-payout-run.ts), system-check and credential-check-android (test/replay/record-system-checks.ts),
// store-purchase-ios, store-notification-* and notification-history (the App Store's, test/replay/record-apple.ts).
// REPLAY_ONLY (comma-separated names, conversion lifecycles without their prefix, a group by its prefix:
// `payout-run`, `store-notification`, `play-notification`, `auto-recharge`) records only those, leaving the others.
import { Client, Connection } from '@temporalio/client';
import type { Knex } from 'knex';
import { writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createLogger } from '../../runtime/logger.js';
import { createWorker, installRuntime } from '../../worker/worker.js';
import { loadConfig } from '../../runtime/config.js';
import { testCardMethod } from '../../clients/payments/test-mode.js';
import { enableAutoRecharge } from '../../db/auto-recharge-writes.js';
import { startAutoRecharge } from '../../workflow-clients/auto-recharge.js';
import { autoRechargeWorkflowId } from '../../workflows/auto-recharge-messages.js';
import { conversionWorkflowId } from '../../workflows/conversion-messages.js';
import { testIntegrationWorkflow } from '../../workflows/test-integration.js';
import { testIntegrationWorkflowId } from '../../workflows/test-integration-messages.js';
import { ingest, reportLate } from '../helpers/conversion-client.js';
import { historyJson } from './history-json.js';
import { recordAppleWorkflows } from './record-apple.js';
import { recordBalanceCheck, recordPayoutRuns } from './record-payout-run.js';
import { recordPlayNotifications } from './record-play-notification.js';
import { recordCredentialCheck, recordSystemCheck } from './record-system-checks.js';
import { recordVoidedPoll } from './record-voided-poll.js';
import { createTestDatabase } from '../helpers/database.js';
import { requireTestEnv } from '../helpers/env.js';
import { insertOfferCode } from '../helpers/offer-codes.js';
import { seedAccount, seedApp, type SeededApp } from '../helpers/seed.js';
import { subscription, type FixtureName, type ProviderBody } from '../helpers/subprovider-events.js';

/** A step is an event, or a pause (ms) that lets the conversion's release timer fire. */
type Step = FixtureName | number;
interface Lifecycle {
  name: string;
  steps: Step[];
  code?: boolean;
  options?: { maxEventsPerRun?: number; closeEndedAfter?: string };
  waitForClose?: boolean;
  /** Refunds name the first purchase's transaction (a clawback once it was released). */
  refundFirst?: boolean;
  /** Keep the latest run rather than the first (the run a continue-as-new started). */
  latestRun?: boolean;
  /**
   * After the steps, the app's late report of the first purchase with the creator's code (`attributeLate`): the
   * purchase is dated now, so the report falls within the attribution window.
   */
  lateReport?: boolean;
  /** The first purchase redeemed the creator's App Store offer code (`offer_code`, no `svc_code`): issue 38. */
  offerCode?: boolean;
}

const LIFECYCLES: Lifecycle[] = [
  { name: 'paid-then-renewals', steps: ['initial_purchase', 'renewal', 'renewal', 'renewal'] },
  { name: 'trial-converting', steps: ['initial_purchase_trial', 'renewal_trial_conversion', 'renewal'] },
  {
    name: 'trial-expiring',
    steps: ['initial_purchase_trial', 'cancellation', 'expiration'],
    options: { closeEndedAfter: '1 second' },
    waitForClose: true,
  },
  { name: 'product-change', steps: ['initial_purchase', 'product_change', 'renewal', 'billing_issue', 'renewal'] },
  { name: 'refund-and-reversal', steps: ['initial_purchase', 'renewal', 'refund_customer_support', 'refund_reversed'] },
  { name: 'cancel-uncancel-expire', steps: ['initial_purchase', 'cancellation', 'uncancellation', 'cancellation', 'expiration'] },
  { name: 'one-time-purchase', steps: ['non_renewing_purchase'], options: { closeEndedAfter: '1 second' }, waitForClose: true },
  { name: 'sandbox', steps: ['sandbox_initial_purchase', 'renewal'] },
  { name: 'organic', steps: ['initial_purchase', 'renewal'], code: false },
  { name: 'continue-as-new', steps: ['initial_purchase', 'renewal', 'renewal', 'renewal', 'renewal'], options: { maxEventsPerRun: 3 } },
  // Released after the holding period (3 s here), then refunded: a clawback; the conversion then closes.
  {
    name: 'holding-release-clawback',
    steps: ['initial_purchase', 3500, 'refund'],
    refundFirst: true,
    options: { closeEndedAfter: '1 second' },
    waitForClose: true,
  },
  // A release carried across continue-as-new: the second run releases what the first one earned.
  {
    name: 'holding-continue-as-new',
    steps: ['initial_purchase', 'renewal', 'renewal', 3500],
    options: { maxEventsPerRun: 2 },
    latestRun: true,
  },
  // Applied as organic (a store notification that bound to no user), then the app's report with a code attributes it.
  { name: 'late-attribution', steps: ['initial_purchase', 'renewal'], code: false, lateReport: true },
  // Attributed by the creator's offer code alone (no code, no click), renewed without it, then the first period refunded.
  { name: 'offer-code', steps: ['initial_purchase', 'renewal', 'refund'], code: false, offerCode: true, refundFirst: true },
];

/** The conversion workflow's released version whose histories this records. */
const CONVERSION_RELEASE = 'r1';
const OUT = process.env.REPLAY_OUT_DIR ?? fileURLToPath(new URL('./histories/', import.meta.url));
const ONLY = process.env.REPLAY_ONLY ? new Set(process.env.REPLAY_ONLY.split(',')) : undefined;
const wanted = (name: string) => !ONLY || ONLY.has(name);

async function main(): Promise<void> {
  const env = requireTestEnv();
  const database = await createTestDatabase();
  const logger = createLogger('warn');
  installRuntime(logger, { handleSignals: false });
  const taskQueue = `record-${randomBytes(4).toString('hex')}`;
  const config = loadConfig({
    PLATFORM_FEE_PERCENT: '10',
    HOLDING_PERIOD_DAY_MS: '100',
    SVC_MASTER_KEY: randomBytes(32).toString('base64'),
  });
  const { worker, connection: workerConnection } = await createWorker({
    address: env.temporalAddress,
    namespace: 'default',
    taskQueue,
    db: database.db,
    config,
  });
  const connection = await Connection.connect({ address: env.temporalAddress });
  const client = new Client({ connection });
  try {
    await worker.runUntil(async () => {
      const seed = await seedAccount(database.db);
      const offerCode = wanted('offer-code') ? await seedOfferCode(database.db, seed) : '';
      for (const life of LIFECYCLES.filter((l) => wanted(l.name))) {
        const sub = subscription(`replay-${life.name}`, life.code === false ? null : seed.creator_code);
        let workflowKey = '';
        let firstTransaction = '';
        let firstBody: ProviderBody | undefined;
        for (const step of life.steps) {
          if (typeof step === 'number') {
            await new Promise((r) => setTimeout(r, step));
            continue;
          }
          const overrides =
            step === 'renewal' && life.name === 'sandbox'
              ? { environment: 'SANDBOX' }
              : step === 'refund' && life.refundFirst
                ? { transaction_id: firstTransaction }
                : life.lateReport && !firstBody
                  ? { purchased_at_ms: Date.now(), event_timestamp_ms: Date.now() }
                  : life.offerCode && !firstBody
                    ? { store: 'APP_STORE', offer_code: offerCode }
                    : {};
          const body = sub(step, overrides);
          firstTransaction ||= body.event.transaction_id;
          firstBody ??= body;
          const result = await ingest(client, taskQueue, seed.app_id, body, life.options ?? {});
          workflowKey ||= step === 'non_renewing_purchase' ? body.event.transaction_id : body.event.original_transaction_id;
          if (!result.eventId) throw new Error(`${life.name}: ${step} not applied`);
          if (life.offerCode && !result.referralCode) throw new Error(`${life.name}: ${step} was not attributed by the offer code`);
        }
        if (life.lateReport) {
          const late = await reportLate(client, taskQueue, seed.app_id, firstBody!, seed.creator_code);
          if (late.outcome !== 'attributed') throw new Error(`${life.name}: the late report was not attributed (${late.reason})`);
        }
        const handle = client.workflow.getHandle(conversionWorkflowId(seed.app_id, workflowKey));
        if (life.waitForClose) await handle.result();
        // For continue-as-new, keep the first run: the one whose history ends in ContinueAsNew.
        const firstRunId = (await handle.describe()).raw.workflowExecutionInfo?.firstRunId ?? undefined;
        const history = await historyJson(
          env.temporalAddress,
          handle.workflowId,
          life.options?.maxEventsPerRun && !life.latestRun ? firstRunId : undefined,
        );
        writeFileSync(`${OUT}${CONVERSION_RELEASE}-${life.name}.json`, history.json);
        console.log(`recorded ${CONVERSION_RELEASE}-${life.name}: ${history.events} events`);
      }
      if (wanted('play-voided-sync')) {
        const voided = await recordVoidedPoll({
          client,
          taskQueue,
          db: database.db,
          config,
          appId: seed.app_id,
          address: env.temporalAddress,
        });
        writeFileSync(`${OUT}play-voided-sync.json`, voided.json);
        console.log(`recorded play-voided-sync: ${voided.events} events`);
      }
      if (wanted('play-notification')) {
        for (const history of await recordPlayNotifications({
          client,
          taskQueue,
          db: database.db,
          config,
          appId: seed.app_id,
          address: env.temporalAddress,
        })) {
          writeFileSync(`${OUT}${history.name}.json`, history.json);
          console.log(`recorded ${history.name}: ${history.events} events`);
        }
      }
      if (wanted('auto-recharge')) await recordAutoRecharges(client, taskQueue, database.db, env.temporalAddress);
      const more = { client, taskQueue, db: database.db, config, address: env.temporalAddress };
      const saved = [
        ...(wanted('system-check') ? [await recordSystemCheck(more)] : []),
        ...(wanted('credential-check') ? [await recordCredentialCheck(more)] : []),
        ...(wanted('payout-run') ? await recordPayoutRuns(more) : []),
        ...(wanted('platform-balance-check') ? [await recordBalanceCheck(more)] : []),
        ...(['store-purchase', 'store-notification', 'notification-history'].some(wanted) ? await recordAppleWorkflows(more, wanted) : []),
      ];
      for (const history of saved) {
        writeFileSync(`${OUT}${history.name}.json`, history.json);
        console.log(`recorded ${history.name}: ${history.events} events`);
      }
      if (!wanted('test-integration')) return;
      // The agent's end-to-end check, which itself drives a conversion workflow.
      const runId = randomBytes(4).toString('hex');
      const test = await client.workflow.start(testIntegrationWorkflow, {
        taskQueue,
        workflowId: testIntegrationWorkflowId(seed.app_id, runId),
        args: [{ appId: seed.app_id, runId }],
      });
      await test.result();
      const testHistory = await historyJson(env.temporalAddress, test.workflowId);
      writeFileSync(`${OUT}test-integration.json`, testHistory.json);
      console.log(`recorded test-integration: ${testHistory.events} events`);
    });
  } finally {
    await connection.close();
    await workerConnection.close();
    await database.drop();
  }
}

/** An App Store offer code of the seeded creator (its reference name), for the `offer-code` lifecycle. */
async function seedOfferCode(db: Knex, seed: { app_id: string; campaign_id: string; creator_code: string }): Promise<string> {
  const member = await db('creator_codes').where({ app_id: seed.app_id, code: seed.creator_code }).first('id', 'creator_id');
  const app = { ...seed, creator_id: member.creator_id as string } as SeededApp;
  const membership = { creator_id: app.creator_id, creator_code_id: member.id as string, creator_code: seed.creator_code };
  const value = 'replay_creator_offer';
  await insertOfferCode(db, app, membership, { platform: 'ios', value });
  return value;
}

/** A recharge that succeeds at once, and one declined twice (a back-off timer between) that turns itself off. */
async function recordAutoRecharges(client: Client, taskQueue: string, db: Knex, address: string): Promise<void> {
  for (const [name, card] of [
    ['auto-recharge-succeeded', 'test_card_ok'],
    ['auto-recharge-declined-disabled', 'test_card_declined'],
  ] as const) {
    const { org_id: orgId } = await seedApp(db, { walletUsd: 20 });
    await enableAutoRecharge(db, orgId, {
      provider: 'test',
      thresholdMicros: 50_000_000,
      amountMicros: 100_000_000,
      method: testCardMethod(card),
    });
    await startAutoRecharge({ client, taskQueue, config: { AUTO_RECHARGE_MAX_ATTEMPTS: 2, AUTO_RECHARGE_RETRY_SECONDS: 1 } }, orgId);
    await client.workflow.getHandle(autoRechargeWorkflowId(orgId)).result();
    const history = await historyJson(address, autoRechargeWorkflowId(orgId));
    writeFileSync(`${OUT}${name}.json`, history.json);
    console.log(`recorded ${name}: ${history.events} events`);
  }
}

await main();
