// svc dev's demo history (actions/demo-history.ts) against real PostgreSQL and Temporal: 30 days of clicks, installs,
// trials, purchases, renewals, one refund, three creators and a payout, through the same db/ functions and the
// conversion workflow, stamped with the explicit times only the seed passes. The dashboard's pages show exactly
// these numbers; an HTTP caller that sends such a time is ignored (its event is stamped now).
import test from 'ava';
import { seedDemoHistory, type DemoHistory } from '../../actions/demo-history.js';
import { signInDashboard, type DashboardSession } from '../helpers/dashboard.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';
import { sendWebhook, subscription } from '../helpers/subprovider-events.js';

const { h, seed } = useSeededHarness(test);
let history: DemoHistory;
let session: DashboardSession;
const DAY = 86_400_000;
const now = Date.now();

test.before(async () => {
  await h.ready();
  const s = seed;
  history = await seedDemoHistory(
    h().db,
    h().temporal,
    h().taskQueue,
    { orgId: s.org_id, appId: s.app_id, campaignId: s.campaign_id, creatorCode: s.creator_code, tag: 'a1b2c3d4' },
    now,
  );
  session = await signInDashboard(h().baseUrl, s.user_email, s.user_password);
});

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const cell = (html: string, metric: string) =>
  Number(new RegExp(`<tr data-metric="${metric}"><th scope="row">[^<]*</th><td>([^<]*)</td>`).exec(html)?.[1]);

test.serial('30 days of activity: three creators, clicks and installs every day, trials, renewals, a refund, a payout', async (t) => {
  t.log(`demo history seeded in ${history.tookMs} ms: ${JSON.stringify({ ...history, payout: history.payout?.run_id })}`);
  const db = h().db;
  t.is(history.creators, 3);
  t.is(
    Number((await db('creator_codes').where({ campaign_id: seed.campaign_id, status: 'active' }).count<{ n: string }[]>('* as n'))[0]!.n),
    3,
  );
  const clicks = await db('clicks').where('app_id', seed.app_id).select<{ clicked_at: Date }[]>('clicked_at');
  t.is(clicks.length, history.clicks);
  t.true(new Set(clicks.map((c) => day(c.clicked_at.getTime()))).size >= 31, 'clicks on every day of the month');
  t.true(Math.min(...clicks.map((c) => c.clicked_at.getTime())) < now - 30 * DAY);
  t.is(
    Number((await db('installs').where({ app_id: seed.app_id, attributed: true }).count<{ n: string }[]>('* as n'))[0]!.n),
    history.installs,
  );

  const events = await db('purchase_events')
    .where('app_id', seed.app_id)
    .select('event_type', 'received_at', 'processing_status', 'period_type');
  t.is(events.length, history.purchaseEvents);
  t.deepEqual(
    events.filter((e) => e.processing_status !== 'processed'),
    [],
    'every event applied by the conversion workflow',
  );
  t.true(events.some((e) => e.period_type === 'TRIAL'));
  t.true(events.filter((e) => e.event_type === 'RENEWAL').length >= 5);
  t.true(
    events.every((e) => (e.received_at as Date).getTime() < now),
    'stamped in the past, as they happened',
  );
  t.true(Math.min(...events.map((e) => (e.received_at as Date).getTime())) < now - 30 * DAY);

  const conversions = await db('conversions').where('app_id', seed.app_id).select('status', 'created_at', 'attributed', 'workflow_id');
  t.is(conversions.length, 12);
  t.true(conversions.every((c) => c.attributed && (c.workflow_id as string).startsWith(`conversion/${seed.app_id}/`)));
  t.is(conversions.filter((c) => c.status === 'refunded').length, 1);
  t.true(
    conversions.some((c) => c.status === 'trialing'),
    'a trial still running',
  );
  t.is(history.refunds, 1);
  t.truthy(await db('commissions').where({ app_id: seed.app_id, kind: 'reversal' }).first(), 'the refund reversed its commission');

  t.truthy(history.payout);
  t.false(history.payout!.already_run);
  t.true(history.payout!.payouts.length >= 1, 'commissions older than the holding period were paid');
  t.true(history.payout!.totals.net_micros > 0);
  t.deepEqual(
    history.payout!.held_over.map((h) => h.reason),
    ['no payout account connected'],
    'the same rule as every run: the creator without a payout account is held over, with the reason',
  );
  t.truthy(await db('commissions').where({ app_id: seed.app_id, status: 'paid' }).first());
});

test.serial('the pages show these numbers: analytics funnel and top creators, live events, the payout run', async (t) => {
  const from = day(now - 31 * DAY);
  const to = day(now);
  const page = await session.browser.fetch(`${h().baseUrl}/dashboard/campaigns/${seed.campaign_id}/analytics?from=${from}&to=${to}`);
  t.is(page.status, 200);
  t.is(cell(page.text, 'clicks'), history.clicks);
  t.is(cell(page.text, 'attributed_installs'), history.installs);
  const paid = await h()
    .db('conversions')
    .where({ app_id: seed.app_id, attributed: true, environment: 'PRODUCTION' })
    .andWhere((q) => {
      void q.where('trial', false).orWhereNotNull('trial_converted_at');
    })
    .count<{ n: string }[]>('* as n');
  t.is(cell(page.text, 'conversions'), Number(paid[0]!.n));
  t.is((page.text.match(/<tr data-code="/g) ?? []).length, 3, 'three creators in the top table');

  const events = await session.browser.fetch(`${h().baseUrl}/dashboard/apps/${seed.app_id}/events`);
  t.is(events.status, 200);
  t.true((events.text.match(/data-kind="purchase"/g) ?? []).length >= 10);
  t.regex(events.text, /REFUND/);

  const run = await session.browser.fetch(`${h().baseUrl}/dashboard/wallet/payouts/${history.payout!.run_id}`);
  t.is(run.status, 200);
  t.regex(run.text, new RegExp(history.payout!.payouts[0]!.creator_id));
});

test.serial("an occurred-at sent over HTTP is ignored: the provider webhook's event is stamped now", async (t) => {
  const past = now - 20 * DAY;
  const body = subscription(`http-user-${Date.now()}`, seed.creator_code)('initial_purchase') as unknown as {
    event: Record<string, unknown>;
  } & Record<string, unknown>;
  Object.assign(body.event, { occurred_at: new Date(past).toISOString(), occurredAtMs: past, occurred_at_ms: past });
  Object.assign(body, { occurredAtMs: past, occurred_at: new Date(past).toISOString() });
  const res = await sendWebhook(h().baseUrl, seed.app_id, seed.webhook_secret, body);
  t.is(res.status, 200, res.text);
  const row = await h().db('purchase_events').where('id', res.body.event_id).first('received_at', 'conversion_id');
  t.true(Math.abs((row.received_at as Date).getTime() - Date.now()) < 60_000, 'received now, not when the caller said');
  const conversion = await h().db('conversions').where('id', row.conversion_id).first('created_at');
  t.true(Math.abs((conversion.created_at as Date).getTime() - Date.now()) < 60_000);
  const commission = await h().db('commissions').where('conversion_id', row.conversion_id).first('created_at', 'payable_at');
  t.true(Math.abs((commission.created_at as Date).getTime() - Date.now()) < 60_000);
});
