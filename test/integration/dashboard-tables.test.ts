// The dashboard's tables over HTTP (issue 28): the agent reads behind them answer exactly as before whatever table
// parameters they are given (q, sort, dir, page, format) and events/recent stays amount-free while the dashboard's
// live rows show the code carried, the refusal reason, price and commission; the creators table searches, sorts,
// pages and exports the same rows as CSV (formula cells prefixed), never another organization's creator, whose
// detail page is 404; the ledger, payouts (after a real payout run) and invitations tables export what they show;
// malformed table parameters fall back instead of failing, LIKE wildcards are searched literally, a CSV read stops
// one row past the cap; the bonus-rules editor saves through the agent API's update and answers a refusal with the
// messages beside the fields, what was typed kept, nothing written.
import test, { type ExecutionContext } from 'ava';
import { randomUUID } from 'node:crypto';
import { parseCsv } from '../helpers/csv.js';
import { upsertCreator, addCreatorCode } from '../../db/creators-writes.js';
import { issueCreatorCode } from '../../lib/codes.js';
import { csvWindow, pageOf, pageWindow } from '../../db/table-page.js';
import { runPayoutRun } from '../../actions/payout-run.js';
import { connectTestAccount } from '../helpers/payouts.js';
import { CSV_ROW_CAP, PAGE_SIZE, type TableSpec, type TableView } from '../../lib/table-query.js';
import { signInDashboard, type DashboardSession } from '../helpers/dashboard.js';
import { request } from '../helpers/http.js';
import { makePayableCommission } from '../helpers/payable.js';
import { seedApp, type SeededApp } from '../helpers/seed.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';
import { sendWebhook, subscription } from '../helpers/subprovider-events.js';
import { waitFor } from '../helpers/svc-processes.js';

const { h, seed } = useSeededHarness(test, { env: { HOLDING_PERIOD_DAY_MS: '300' } });
let other: SeededApp;
let owner: DashboardSession;
const TAG = `tbl${randomUUID().slice(0, 6)}`;

const page = (path: string) => owner.browser.fetch(`${h().baseUrl}${path}`);
const agent = (path: string) => request(h().baseUrl, 'GET', `/api/agent${path}`, { token: seed.agent_key });
const csvRows = parseCsv;
/** The text of each cell of the table `id` (tags stripped, entities decoded). */
function tableCells(html: string, id: string): string[][] {
  const table = new RegExp(`<table id="${id}"[\\s\\S]*?</table>`).exec(html)?.[0] ?? '';
  const body = /<tbody>([\s\S]*)<\/tbody>/.exec(table)?.[1] ?? '';
  const decode = (s: string) =>
    s
      .replace(/<[^>]+>/g, '')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&');
  // A time cell's text is the viewer's local time; its `datetime` is the instant the CSV holds.
  const cell = (c: string) => /<time datetime="([^"]+)"/.exec(c)?.[1] ?? decode(c);
  return [...body.matchAll(/<tr(?! class="empty")[^>]*>([\s\S]*?)<\/tr>/g)].map((r) =>
    [...r[1]!.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((c) => cell(c[1]!)),
  );
}

async function addNamedCreator(
  name: string,
  orgApp: { app_id: string; campaign_id: string } = seed,
): Promise<{ id: string; code: string }> {
  const creator = await upsertCreator(h().db, { name, email: `${randomUUID()}@example.com` });
  const code = await addCreatorCode(h().db, {
    appId: orgApp.app_id,
    campaignId: orgApp.campaign_id,
    creatorId: creator.id,
    code: issueCreatorCode(),
    source: 'seed',
  });
  return { id: creator.id, code: code.code };
}

test.before(async () => {
  await h.ready();
  other = await seedApp(h().db);
  owner = await signInDashboard(h().baseUrl, seed.user_email, seed.user_password);
  for (let i = 0; i < PAGE_SIZE + 3; i += 1) await addNamedCreator(`${TAG} creator ${String(i).padStart(2, '0')}`);
});

test.serial(
  'the agent reads behind the tables answer the same with or without table parameters; events/recent carries no amounts',
  async (t) => {
    const buyer = `buyer-${randomUUID()}`;
    const sent = await sendWebhook(
      h().baseUrl,
      seed.app_id,
      seed.webhook_secret,
      subscription(buyer, seed.creator_code)('initial_purchase'),
    );
    t.is(sent.status, 200);
    await waitFor(
      async () => Boolean(await h().db('commissions').where('purchase_event_id', sent.body.event_id).first()),
      'the commission',
      30_000,
    );
    const params = `q=${TAG}&sort=name&dir=asc&page=2&format=csv`;
    const reads = [
      `/campaigns/${seed.campaign_id}/affiliates`,
      '/invitations?status=all',
      `/apps/${seed.app_id}/events/recent?limit=100`,
      `/apps/${seed.app_id}/verify-user-conversions?app_user_id=${buyer}`,
    ];
    for (const path of reads) {
      const plain = await agent(path);
      const withTable = await agent(`${path}${path.includes('?') ? '&' : '?'}${params}`);
      t.is(plain.status, 200, path);
      t.deepEqual(withTable.body, plain.body, `${path} is unchanged by table parameters`);
    }
    const affiliates = (await agent(`/campaigns/${seed.campaign_id}/affiliates`)).body.affiliates as Record<string, unknown>[];
    t.is(affiliates.length, PAGE_SIZE + 4, 'every creator, not a page');
    t.deepEqual(Object.keys(affiliates[0]!), [
      'creator_id',
      'name',
      'social_handle',
      'follower_count',
      'code',
      'status',
      'source',
      'joined_at',
      'clicks',
      'installs',
      'production_conversions',
    ]);
    const recent = (await agent(`/apps/${seed.app_id}/events/recent?limit=100`)).body;
    const webhook = recent.webhooks.find((w: { event_id: string }) => w.event_id === sent.body.event_id);
    t.deepEqual(
      Object.keys(webhook).sort(),
      [
        'app_user_id',
        'attributed',
        'attribution_method',
        'environment',
        'error',
        'event_id',
        'event_type',
        'failed',
        'organic',
        'product_id',
        'received_at',
        'referral_code',
        'source',
      ].sort(),
    );
    t.notRegex(JSON.stringify(recent), /price|commission|micros|code_known/);
    const verified = (await agent(`/apps/${seed.app_id}/verify-user-conversions?app_user_id=${buyer}`)).body;
    t.is(verified.events.length, 1);
    t.notRegex(JSON.stringify(verified.events), /price|commission|micros|code_known/);

    // The dashboard's live row of the same purchase shows its price and commission.
    const [pe, commission] = await Promise.all([
      h().db('purchase_events').where('id', sent.body.event_id).first('price_usd_micros'),
      h().db('commissions').where('purchase_event_id', sent.body.event_id).sum<{ sum: number }[]>('commission_micros'),
    ]);
    const live = await page(`/dashboard/apps/${seed.app_id}/events`);
    const row = new RegExp(`<tr data-kind="purchase" data-event-id="${sent.body.event_id}"[\\s\\S]*?</tr>`).exec(live.text)?.[0] ?? '';
    t.regex(
      row,
      new RegExp(
        `<td class="price">${(pe.price_usd_micros / 1e6).toFixed(2)}</td><td ` +
          `class="commission">${(Number(commission[0]!.sum) / 1e6).toFixed(2)}</td>`,
      ),
    );
  },
);

test.serial('a purchase with a code that matches no creator shows the code and says so, with the outcome', async (t) => {
  const sent = await sendWebhook(
    h().baseUrl,
    seed.app_id,
    seed.webhook_secret,
    subscription(`buyer-${randomUUID()}`, 'NOSUCHCODE9')('initial_purchase'),
  );
  t.is(sent.status, 200);
  await waitFor(
    async () =>
      (await h().db('purchase_events').where('id', sent.body.event_id).first('processing_status'))?.processing_status !== 'received',
    'the event processed',
    30_000,
  );
  const stored = await h().db('purchase_events').where('id', sent.body.event_id).first();
  t.false(stored.attributed);
  const live = await page(`/dashboard/apps/${seed.app_id}/events`);
  const row = new RegExp(`<tr data-kind="purchase" data-event-id="${sent.body.event_id}"[\\s\\S]*?</tr>`).exec(live.text)?.[0] ?? '';
  t.regex(
    row,
    new RegExp(`<td class="carried-code"><code>${stored.referral_code}</code> <span class="muted">matched no creator</span></td>`),
  );
  t.regex(row, /<td class="commission"><\/td>/, 'no commission for an organic purchase');
  // The history table finds it by the code, and its CSV says the same.
  const history = await page(`/dashboard/apps/${seed.app_id}/events/history?q=${stored.referral_code}`);
  t.is(history.status, 200);
  const cells = tableCells(history.text, 'event-table');
  t.is(cells.length, 1);
  t.is(cells[0]![7], `${stored.referral_code} (matched no creator)`);
  const csv = await page(`/dashboard/apps/${seed.app_id}/events/history?q=${stored.referral_code}&format=csv`);
  t.deepEqual(csvRows(csv.text).slice(1), cells);
  // The agent still sees the spec's organic row: no code.
  const recent = (await agent(`/apps/${seed.app_id}/events/recent?limit=100`)).body;
  t.is(recent.webhooks.find((w: { event_id: string }) => w.event_id === sent.body.event_id).referral_code, null);
});

test.serial(
  'the creators table searches, sorts and pages; its CSV is every matching row in the same order; another org is absent and 404',
  async (t) => {
    const outsider = await addNamedCreator(`${TAG} outsider`, other);
    const first = await page(`/dashboard/creators?q=${TAG}&sort=name&dir=asc`);
    t.is(first.status, 200);
    const p1 = tableCells(first.text, 'creators');
    t.is(p1.length, PAGE_SIZE);
    t.is(p1[0]![0], `${TAG} creator 00`);
    t.regex(first.text, new RegExp(`rows 1 to ${PAGE_SIZE} of ${PAGE_SIZE + 3}`));
    const p2 = tableCells((await page(`/dashboard/creators?q=${TAG}&sort=name&dir=asc&page=2`)).text, 'creators');
    t.deepEqual(
      p2.map((r) => r[0]),
      [25, 26, 27].map((i) => `${TAG} creator ${i}`),
    );
    const desc = tableCells((await page(`/dashboard/creators?q=${TAG}&sort=name&dir=desc`)).text, 'creators');
    t.is(desc[0]![0], `${TAG} creator 27`);
    const csv = await page(`/dashboard/creators?q=${TAG}&sort=name&dir=asc&format=csv`);
    t.is(csv.status, 200);
    t.regex(csv.headers.get('content-type') ?? '', /^text\/csv; charset=utf-8/);
    t.regex(csv.headers.get('content-disposition') ?? '', /attachment; filename="creators.csv"/);
    const rows = csvRows(csv.text);
    t.is(rows[0]![0], 'Creator');
    t.deepEqual(rows.slice(1), [...p1, ...p2], 'all pages, same cells, same order');
    t.false(csv.text.includes('outsider'));
    t.is((await page(`/dashboard/creators/${outsider.id}`)).status, 404);
    t.is((await page('/dashboard/creators/crt_nosuchcreator')).status, 404);
    // Formula injection: the name is exported as text.
    await addNamedCreator('=cmd|calc');
    const injected = csvRows((await page('/dashboard/creators?q=cmd&format=csv')).text);
    t.is(injected[1]![0], "'=cmd|calc");
  },
);

test.serial(
  'the bonus-rules editor: a refusal keeps what was typed with the messages beside the fields; a save goes through the agent update',
  async (t) => {
    const path = `/dashboard/campaigns/${seed.campaign_id}`;
    const form = await page(path);
    t.regex(form.text, /<h2 id="bonus-rules">Milestone bonuses<\/h2>/);
    const csrf = /name="csrf" value="([^"]+)"/.exec(form.text)![1]!;
    const refused = await owner.browser.fetch(`${h().baseUrl}${path}/bonus-rules`, {
      form: {
        csrf,
        threshold_0: '5',
        bonus_0: '25',
        name_0: '',
        threshold_1: '5',
        bonus_1: '12.345',
        name_1: 'Twice',
        threshold_2: 'ten',
        bonus_2: '10',
      },
    });
    t.is(refused.status, 422);
    t.regex(
      refused.text,
      /<input id="rule-threshold-1" name="threshold_1" value="5" aria-invalid="true" aria-describedby="rule-threshold-1-error"[^>]*>\s*<p id="rule-threshold-1-error" class="error field-error">Threshold 5 appears twice: thresholds must be distinct\.<\/p>/, // long-line: one regular expression
    );
    t.regex(refused.text, /<p id="rule-bonus-1-error" class="error field-error">At most 2 decimals \(whole cents\)\.<\/p>/);
    t.regex(
      refused.text,
      /name="threshold_2" value="ten"[^>]*>\s*<p id="rule-threshold-2-error" class="error field-error">Enter a whole number of conversions from 1 to 1,000,000\.<\/p>/, // long-line: one regular expression
    );
    t.regex(refused.text, /name="bonus_1" value="12.345"/);
    t.is((await h().db('bonus_rules').where({ campaign_id: seed.campaign_id, active: true })).length, 0, 'nothing written');

    const saved = await owner.browser.fetch(`${h().baseUrl}${path}/bonus-rules`, {
      form: { csrf, threshold_0: '5', bonus_0: '25', name_0: '', threshold_1: '10', bonus_1: '60.50', name_1: 'Ten sales' },
    });
    t.is(saved.status, 303);
    t.regex(saved.location ?? '', /#bonus-rules$/);
    const campaign = (await agent(`/campaigns/${seed.campaign_id}`)).body;
    t.deepEqual(
      campaign.bonus_rules.map((r: { threshold_conversions: number; bonus_usd: number; name: string }) => [
        r.threshold_conversions,
        r.bonus_usd,
        r.name,
      ]),
      [
        [5, 25, '5 conversions bonus'],
        [10, 60.5, 'Ten sales'],
      ],
    );
    t.is((await h().db('audit_log').where({ action: 'dashboard.update_bonus_rules', target_id: seed.campaign_id })).length, 1);

    // Edit one and remove the other: the page shows the list as saved.
    const again = await page(path);
    t.regex(again.text, /name="bonus_1" value="60.5"/);
    const edited = await owner.browser.fetch(`${h().baseUrl}${path}/bonus-rules`, {
      form: {
        csrf,
        threshold_0: '5',
        bonus_0: '30',
        name_0: '5 conversions bonus',
        remove_1: '1',
        threshold_1: '10',
        bonus_1: '60.5',
        name_1: 'Ten sales',
      },
    });
    t.is(edited.status, 303);
    const active = await h()
      .db('bonus_rules')
      .where({ campaign_id: seed.campaign_id, active: true })
      .select('threshold_conversions', 'bonus_micros');
    t.deepEqual(
      active.map((r) => [r.threshold_conversions, Number(r.bonus_micros)]),
      [[5, 30_000_000]],
    );
    // Another organization's campaign is 404, nothing written there.
    const foreign = await owner.browser.fetch(`${h().baseUrl}/dashboard/campaigns/${other.campaign_id}/bonus-rules`, {
      form: { csrf, threshold_0: '3', bonus_0: '5' },
    });
    t.is(foreign.status, 404);
    t.is((await h().db('bonus_rules').where({ campaign_id: other.campaign_id })).length, 0);
  },
);

/** A page's table and its CSV: the CSV is the page's rows, a cell that reads as a formula prefixed with `'`. */
async function pageAndCsv(t: ExecutionContext, path: string, id: string, actionColumn = false): Promise<string[][]> {
  const view = await page(path);
  t.is(view.status, 200, path);
  const cells = tableCells(view.text, id).map((r) => (actionColumn ? r.slice(0, -1) : r));
  const csv = await page(`${path}${path.includes('?') ? '&' : '?'}format=csv`);
  t.is(csv.status, 200);
  t.is(csv.headers.get('x-total-rows'), String(cells.length));
  t.deepEqual(
    csvRows(csv.text).slice(1),
    cells.map((r) => r.map((c) => (/^[=+\-@\t\r]/.test(c) ? `'${c}` : c))),
    `${path}: the CSV holds the page's rows`,
  );
  return cells;
}

test.serial('ledger, payouts and invitations tables: the CSV is the view; a payout run appears on the creator page', async (t) => {
  // A commission released by its workflow after a short holding period, paid by a run: reserve, release and payout entries.
  const seeded = await h().db('creator_codes').where({ app_id: seed.app_id, code: seed.creator_code }).first('creator_id');
  await makePayableCommission(h().db, h().baseUrl, seed, `buyer-${randomUUID()}`);
  await connectTestAccount(h().db, seeded.creator_id);
  const run = await runPayoutRun({ db: h().db }, { orgId: seed.org_id, runId: `run-${TAG}`, createdBy: 'test' });
  t.true(run.payouts.length >= 1);

  const ledger = await pageAndCsv(t, '/dashboard/wallet/ledger?sort=balance_delta_micros&dir=asc', 'ledger-table');
  const entries = await h()
    .db('wallet_ledger')
    .where('org_id', seed.org_id)
    .orderBy([{ column: 'balance_delta_micros' }, { column: 'id' }])
    .select('id', 'entry_type');
  t.deepEqual(
    ledger.map((r) => [Number(r[0]), r[2]]),
    entries.map((e) => [Number(e.id), e.entry_type]),
    'every entry, ordered by the balance change',
  );
  t.true(
    ledger.some((r) => r[3]!.startsWith('-')),
    'a payout lowers the balance (and exports as text)',
  );
  t.is(
    tableCells((await page('/dashboard/wallet/ledger?q=payout')).text, 'ledger-table').every((r) => r[2] === 'payout'),
    true,
  );

  const payouts = await pageAndCsv(t, `/dashboard/wallet/payouts?q=run-${TAG}`, 'payout-table');
  t.is(payouts.length, run.payouts.length);
  const creatorPayouts = await pageAndCsv(t, `/dashboard/creators/${seeded.creator_id}`, 'payout-table');
  t.deepEqual(
    creatorPayouts.map((r) => r[1]),
    [`run-${TAG}`],
  );
  const other = run.payouts.find((p) => p.creator_id === seeded.creator_id)!;
  t.is(creatorPayouts[0]!.at(-2), (other.net_micros / 1e6).toFixed(2));
  t.is(creatorPayouts[0]!.at(-1), 'sending', 'no phase 2 was started: the payout is still being sent, never "paid"');

  await request(h().baseUrl, 'POST', `/api/agent/campaigns/${seed.campaign_id}/invite`, {
    token: seed.agent_key,
    body: { email: `${TAG}-invitee@example.com`, name: `${TAG} invitee` },
  });
  const invitations = await pageAndCsv(t, `/dashboard/invitations?q=${TAG}`, 'invitation-table', true);
  t.deepEqual(
    invitations.map((r) => [r[0], r[3]]),
    [[`${TAG}-invitee@example.com`, 'PENDING']],
  );
});

test.serial(
  'table parameters never break a page: an unknown sort, a bad page, a past-the-end page, LIKE wildcards searched literally',
  async (t) => {
    for (const query of [
      'sort=name%3Bdrop%20table%20creators&dir=sideways',
      'page=-3',
      'page=abc',
      'q=%25',
      'q=_',
      `q=${'x'.repeat(500)}`,
    ]) {
      const res = await page(`/dashboard/creators?${query}`);
      t.is(res.status, 200, query);
    }
    t.is(tableCells((await page('/dashboard/creators?q=%25')).text, 'creators').length, 0, '% is a character, not a wildcard');
    const past = await page('/dashboard/creators?page=999');
    t.regex(past.text, /No rows on this page\./);
    const view: TableView = { sort: 'n', dir: 'desc', page: 1, pageSize: 10 };
    const base = h()
      .db.from(h().db.raw('generate_series(1, ?) as g(n)', [CSV_ROW_CAP + 5]))
      .select('n', h().db.raw("'row ' || n as label"));
    const spec: TableSpec = { sortable: ['n'], searchable: ['label'], defaultSort: 'n', defaultDir: 'desc', key: 'n' };
    const csv = await pageOf<{ n: number }>(h().db, base, spec, view, csvWindow);
    t.is(csv.total, CSV_ROW_CAP + 5);
    t.is(csv.rows.length, CSV_ROW_CAP + 1, 'one past the cap, so the export knows it was cut');
    t.is(csv.rows[0]!.n, CSV_ROW_CAP + 5);
    const found = await pageOf<{ n: number }>(h().db, base, spec, { ...view, search: 'row 1000' }, pageWindow(view));
    t.deepEqual(
      found.rows.map((r) => r.n),
      [10005, 10004, 10003, 10002, 10001, 10000, 1000],
    );
    t.is(found.total, 7);
    const pageTwo = await pageOf<{ n: number }>(h().db, base, spec, { ...view, page: 2 }, pageWindow({ ...view, page: 2 }));
    t.deepEqual(
      pageTwo.rows.map((r) => r.n),
      Array.from({ length: 10 }, (_, i) => CSV_ROW_CAP + 5 - 10 - i),
      'page 2 starts right after page 1',
    );
  },
);
