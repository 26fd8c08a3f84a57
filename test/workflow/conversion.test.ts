// The conversion workflow on the run's Temporal dev server with the real activities against PostgreSQL: long
// lifecycles continue-as-new with their memory intact, ended conversions close after a quiet period and a later
// event opens a new run without doubling anything. (The time-skipping test server does not deliver update
// results, temporalio/sdk-java#1903 and features#551, so these run on the real server with short settings.)
import test from 'ava';
import { conversionWorkflowId } from '../../workflows/conversion-messages.js';
import { ingest } from '../helpers/conversion-client.js';
import { addCampaign, addCreator } from '../helpers/conversions.js';
import { subscription } from '../helpers/subprovider-events.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h, seed } = useSeededHarness(test, { api: false });

test('many renewals: the workflow continues-as-new and still answers redeliveries from earlier runs', async (t) => {
  const { temporal, taskQueue, db } = h();
  const sub = subscription('can-many', seed.creator_code);
  const first = sub('initial_purchase');
  const firstResult = await ingest(temporal, taskQueue, seed.app_id, first, { maxEventsPerRun: 5 });
  for (let i = 0; i < 14; i++) {
    const result = await ingest(temporal, taskQueue, seed.app_id, sub('renewal'), { maxEventsPerRun: 5 });
    t.falsy(result.error);
  }
  const conversion = await db('conversions').where({ app_id: seed.app_id, app_user_id: 'can-many' }).first();
  t.is(conversion.billing_cycles, 15);
  const handle = temporal.workflow.getHandle(conversionWorkflowId(seed.app_id, conversion.conversion_key));
  const history = await handle.fetchHistory();
  const started = history.events![0]!.workflowExecutionStartedEventAttributes!;
  t.truthy(started.continuedExecutionRunId, 'the current run was continued from an earlier one');
  t.true(history.events!.length < 60, `the current run holds only its latest events (${history.events!.length})`);
  t.like((await handle.describe()).status, { name: 'RUNNING' });
  const again = await ingest(temporal, taskQueue, seed.app_id, first, { maxEventsPerRun: 5 });
  t.is(again.eventId, firstResult.eventId);
  t.true(again.duplicate);
  t.is((await db('commissions').where('conversion_id', conversion.id)).length, 15);
});

test('a churned conversion closes after its quiet period; a later event opens a new run and nothing doubles', async (t) => {
  const { temporal, taskQueue, db } = h();
  // No holding period: a conversion never closes while it holds a commission (holding-payouts.test.ts).
  const campaignId = await addCampaign(db, seed);
  await db('campaigns').where('id', campaignId).update({ holding_period_days: 0 });
  const creator = await addCreator(db, seed, campaignId);
  const sub = subscription('can-churn', creator.code);
  const first = sub('initial_purchase');
  const opts = { closeEndedAfter: '1 second' };
  const firstResult = await ingest(temporal, taskQueue, seed.app_id, first, opts);
  await ingest(temporal, taskQueue, seed.app_id, sub('expiration'), opts);
  const conversion = await db('conversions').where({ app_id: seed.app_id, app_user_id: 'can-churn' }).first();
  t.is(conversion.status, 'churned');
  const handle = temporal.workflow.getHandle(conversionWorkflowId(seed.app_id, conversion.conversion_key));
  t.like(await handle.result(), { status: 'churned', events: 2 });
  const again = await ingest(temporal, taskQueue, seed.app_id, first, opts);
  t.is(again.eventId, firstResult.eventId, 'the redelivery is answered with the original event');
  t.is((await db('commissions').where('conversion_id', conversion.id)).length, 1);
  const late = await ingest(temporal, taskQueue, seed.app_id, sub('renewal'), opts);
  t.falsy(late.error);
  t.is((await db('commissions').where('conversion_id', conversion.id)).length, 1, 'a churned conversion earns no more');
  t.like(await db('commissions').where('conversion_id', conversion.id).first(), { status: 'payable' }, 'released before the run closed');
});

test("search attributes let an operator find a user's conversions", async (t) => {
  const { temporal, taskQueue } = h();
  const sub = subscription('sa-user-1', seed.creator_code);
  await ingest(temporal, taskQueue, seed.app_id, sub('initial_purchase'));
  let found: { workflowId: string; searchAttributes: unknown }[] = [];
  for (let i = 0; i < 50 && found.length === 0; i++) {
    found = [];
    for await (const w of temporal.workflow.list({ query: `AppUserId = 'sa-user-1' AND AppId = '${seed.app_id}'` })) found.push(w);
    if (found.length === 0) await new Promise((r) => setTimeout(r, 200));
  }
  t.is(found.length, 1);
  t.true(found[0]!.workflowId.startsWith(`conversion/${seed.app_id}/`));
  const described = await temporal.workflow.getHandle(found[0]!.workflowId).describe();
  const attrs = Object.fromEntries(described.typedSearchAttributes.getAll().map((p) => [p.key.name, p.value]));
  t.like(attrs, {
    AppId: seed.app_id,
    AppUserId: 'sa-user-1',
    ReferralCode: seed.creator_code,
    ConversionStatus: 'active',
    Environment: 'PRODUCTION',
  });
});
