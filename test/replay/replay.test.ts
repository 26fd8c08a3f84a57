// Every recorded lifecycle (test/replay/histories/*.json, `npm run replay:record`) replays against the current
// workflow code without a determinism error: running conversions survive a deploy. The suite also shows that it
// would catch what it guards against: a history recorded before the first release (with the patch markers the code
// no longer reads, test/replay/generations/) and a history whose commands came in another order both fail.
import { Worker } from '@temporalio/worker';
import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createLogger } from '../../runtime/logger.js';
import { installRuntime, workflowBundle } from '../../worker/worker.js';
import * as registered from '../../workflows/index.js';

const DIR = fileURLToPath(new URL('./histories/', import.meta.url));
const OLD_GENERATION = fileURLToPath(new URL('./generations/pre-r1-paid-then-renewals.json', import.meta.url));
const files = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .sort();

interface HistoryEvent {
  eventId: string;
  eventType: string;
  workflowExecutionStartedEventAttributes?: { workflowType?: { name?: string } };
  workflowExecutionUpdateAcceptedEventAttributes?: { acceptedRequest?: { input?: { name?: string } } };
}
interface History {
  events: HistoryEvent[];
}
const read = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as History;

async function replay(histories: { workflowId: string; history: unknown }[]) {
  installRuntime(createLogger('silent'), { handleSignals: false });
  const results = [];
  for await (const result of Worker.runReplayHistories({ workflowBundle: await workflowBundle() }, histories)) results.push(result);
  return results;
}

test('the current conversion workflow has its set of recorded lifecycles (r1-*), every update it takes among them', (t) => {
  const r1 = files.filter((f) => f.startsWith('r1-'));
  t.true(r1.length >= 10, files.join(', '));
  const updates = new Set(
    r1.flatMap((f) => read(`${DIR}${f}`).events.map((e) => e.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name)),
  );
  updates.delete(undefined);
  t.deepEqual([...updates].sort(), ['attributeLate', 'ingestEvent'], 'a new update of the conversion workflow needs a recorded history');
});

test('every workflow type the worker registers has at least one recorded history', (t) => {
  // The type of a history is the one its first event started (the replayer runs that type from the bundle).
  const recorded = new Set(files.map((f) => read(`${DIR}${f}`).events[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name));
  const types = Object.keys(registered).sort();
  t.is(types.length, 12, types.join(', '));
  t.deepEqual(
    types.filter((type) => !recorded.has(type)),
    [],
    'a workflow type without a recorded history: record one (test/replay/record-histories.ts, REPLAY_ONLY=<name> npm run replay:record)',
  );
});

test('every recorded history replays without a determinism error', async (t) => {
  const results = await replay(files.map((file) => ({ workflowId: file.replace(/\.json$/, ''), history: read(`${DIR}${file}`) })));
  t.is(results.length, files.length);
  for (const r of results) t.is(r.error, undefined, `${r.workflowId}: ${String(r.error)}`);
});

test('a run recorded before the first release (patch markers) no longer replays: such runs are rehydrated', async (t) => {
  const history = read(OLD_GENERATION);
  t.true(
    history.events.some((e) => e.eventType === 'EVENT_TYPE_MARKER_RECORDED' && JSON.stringify(e).includes('core_patch')),
    'the fixture holds patch markers',
  );
  const [result] = await replay([{ workflowId: 'pre-r1-paid-then-renewals', history }]);
  t.is(result!.error?.name, 'DeterminismViolationError', String(result!.error));
});

test("a command-order change fails the replay (the first event's timer planted before its write)", async (t) => {
  const history = read(`${DIR}r1-paid-then-renewals.json`);
  const marker = history.events.findIndex((e) => e.eventType === 'EVENT_TYPE_MARKER_RECORDED');
  const timer = history.events.findIndex((e) => e.eventType === 'EVENT_TYPE_TIMER_STARTED');
  t.true(marker > 0 && timer > marker, 'the first task writes the event, then starts the timer');
  const events = [...history.events];
  const [planted] = events.splice(timer, 1);
  events.splice(marker, 0, planted!);
  const reordered = { ...history, events: events.map((e, i) => ({ ...e, eventId: String(i + 1) })) };
  const [result] = await replay([{ workflowId: 'planted-order-change', history: reordered }]);
  t.is(result!.error?.name, 'DeterminismViolationError', String(result!.error));
});

type Fields = Record<string, { data: string }>;
interface AttributeEvents {
  events: {
    workflowExecutionStartedEventAttributes?: { searchAttributes?: { indexedFields: Fields } };
    upsertWorkflowSearchAttributesEventAttributes?: { searchAttributes: { indexedFields: Fields } };
  }[];
}
const value = (f: { data: string }) => JSON.parse(Buffer.from(f.data, 'base64').toString('utf8')) as unknown;
const upsertsOf = (h: AttributeEvents) =>
  h.events.flatMap((e) =>
    e.upsertWorkflowSearchAttributesEventAttributes ? [e.upsertWorkflowSearchAttributesEventAttributes.searchAttributes.indexedFields] : [],
  );

test(
  'search attributes: AppId, Environment, AppUserId and ReferralCode ' +
    'come with the start; the run upserts only ConversionStatus, when it changes',
  (t) => {
    const history = read(`${DIR}r1-cancel-uncancel-expire.json`) as unknown as AttributeEvents;
    const started = history.events[0]!.workflowExecutionStartedEventAttributes!.searchAttributes!.indexedFields;
    t.deepEqual(Object.keys(started).sort(), ['AppId', 'AppUserId', 'Environment', 'ReferralCode']);
    const upserts = upsertsOf(history);
    t.true(upserts.every((u) => Object.keys(u).join() === 'ConversionStatus'));
    // Five events (purchase, cancel, uncancel, cancel, expire): each changed the status once.
    t.deepEqual(
      upserts.map((u) => value(u.ConversionStatus!)),
      ['active', 'cancelled', 'active', 'cancelled', 'churned'],
    );
    // A purchase and three renewals: the status changed once.
    t.deepEqual(
      upsertsOf(read(`${DIR}r1-paid-then-renewals.json`) as unknown as AttributeEvents).map((u) => value(u.ConversionStatus!)),
      ['active'],
    );
  },
);
