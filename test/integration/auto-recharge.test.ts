// Auto-recharge in test mode, end to end on the dev server: a human enables it on the signed top-up link's page
// (form posts; the link is the page's capability, as for the top-up), a commission reservation drops the safe
// balance below the threshold, the purchase activity starts `auto-recharge/{org_id}` (USE_EXISTING), which charges
// the simulated card once and credits it through the top-up path (one `topup` entry, catch-up included). Racing
// drops still charge once, and so does a bonus approval; a declined card is recorded visibly, retried after the back-off and then turned
// off. Agents read the settings and can never change them.
import test from 'ava';
import { AGENT_ENDPOINTS } from '../../api/agent/endpoints.js';
import { createAgentKey } from '../../db/agent-keys-writes.js';
import { getWalletTotals } from '../../db/wallet-ledger.js';
import { enableFields, postForm, rechargeResult, recharges, topupEntries, topupLink } from '../helpers/auto-recharge.js';
import { assertExactBooks, commissionsOf, conversionsOfUser } from '../helpers/conversions.js';
import { useHarness } from '../helpers/harness.js';
import { request } from '../helpers/http.js';
import { seedApp, type SeededApp } from '../helpers/seed.js';
import { sendWebhook, subscription } from '../helpers/subprovider-events.js';

const h = useHarness(test, { env: { AUTO_RECHARGE_RETRY_SECONDS: '1', AUTO_RECHARGE_MAX_ATTEMPTS: '2' } });
test.before(async () => {
  await h.ready();
});

const RESERVE = 3_000_000 + 300_000; // 9.99 USD at 30 % plus the 10 % platform fee
const tag = () => Math.random().toString(36).slice(2, 10);

function purchase(app: SeededApp, user = `ar-${tag()}`) {
  return sendWebhook(h().baseUrl, app.app_id, app.webhook_secret, subscription(user, app.creator_code)('initial_purchase'));
}

async function enable(app: SeededApp, threshold: string, amount: string, card = 'test_card_ok') {
  const { path, agentKey } = await topupLink(h().baseUrl, h().db, app.org_id);
  const res = await postForm(h().baseUrl, path, enableFields(threshold, amount, { test_card: card }));
  if (res.status !== 200) throw new Error(`${res.status} ${res.text}`);
  return { path, agentKey, res };
}

const wallet = (key: string) => request(h().baseUrl, 'GET', '/api/agent/wallet', { token: key });

test('enabled on the page in test mode; a reservation below the threshold recharges once, credited through the top-up path', async (t) => {
  const app = await seedApp(h().db, { walletUsd: 52 });
  const { path } = await topupLink(h().baseUrl, h().db, app.org_id);
  const page = await request(h().baseUrl, 'GET', path, { headers: { accept: 'text/html' } });
  t.regex(page.text, /<h2>Auto-recharge<\/h2>/);
  t.regex(page.text, /Test mode: no real card is charged/);
  t.regex(page.text, /Simulated test card 4242/);

  const enabled = await postForm(h().baseUrl, path, enableFields('50', '100', { test_card: 'test_card_ok' }));
  t.is(enabled.status, 200, enabled.text);
  t.regex(enabled.text, /Auto-recharge is on \(test mode\)/);
  t.regex(enabled.text, /falls below \$50\.00 USD, \$100\.00 USD is charged to Simulated test card 4242/);
  t.is((await request(h().baseUrl, 'GET', path)).status, 200, 'changing settings does not spend the link');
  t.is((await recharges(h().db, app.org_id)).length, 0, 'above the threshold when enabled: nothing charged');

  const res = await purchase(app);
  t.is(res.status, 200, res.text);
  t.falsy(res.body.error);
  t.like(await rechargeResult(h().temporal, app.org_id), { outcome: 'succeeded', attempts: 1 });
  const [recharge, ...more] = await recharges(h().db, app.org_id);
  t.is(more.length, 0, 'one recharge');
  t.like(recharge, { status: 'succeeded', provider: 'test', amount_micros: 100_000_000, credited_micros: 100_000_000 });
  const entries = await topupEntries(h().db, app.org_id);
  t.is(entries.length, 2, 'the seed and one recharge');
  t.like(entries[1], { balance_delta_micros: 100_000_000, idempotency_key: `topup:payment:${recharge.id}` });
  t.deepEqual(await getWalletTotals(h().db, app.org_id), {
    balanceMicros: 152_000_000,
    reservedMicros: RESERVE,
    safeAvailableMicros: 152_000_000 - RESERVE,
  });

  // A later event above the threshold starts nothing; the page shows the result.
  await purchase(app);
  t.like(await rechargeResult(h().temporal, app.org_id), { outcome: 'succeeded' });
  t.is((await recharges(h().db, app.org_id)).length, 1);
  const after = await request(h().baseUrl, 'GET', path, { headers: { accept: 'text/html' } });
  t.regex(after.text, /Last recharge \([^)]+\): credited \$100\.00 USD/);
  await assertExactBooks(t, h().db, app.org_id);
});

test('an approved bonus that drops the safe balance below the threshold recharges too', async (t) => {
  const app = await seedApp(h().db, { walletUsd: 80 });
  await h()
    .db('bonus_rules')
    .insert({ campaign_id: app.campaign_id, name: 'First sale', threshold_conversions: 1, bonus_micros: 30_000_000 });
  await enable(app, '50', '100');
  await purchase(app); // 80 - 3.30: still above 50
  t.is((await recharges(h().db, app.org_id)).length, 0);
  const award = await h().db('bonus_awards').where({ campaign_id: app.campaign_id }).first();
  const reviewer = await createAgentKey(h().db, { orgId: app.org_id, name: 'reviewer', scopes: ['creators:write', 'creators:read'] });
  const approved = await request(h().baseUrl, 'POST', `/api/agent/bonus-awards/${award.id}/review`, {
    token: reviewer.key,
    body: { decision: 'approve' },
  });
  t.is(approved.status, 200, approved.text);
  t.like(await rechargeResult(h().temporal, app.org_id), { outcome: 'succeeded' });
  t.is((await recharges(h().db, app.org_id)).length, 1);
  t.deepEqual(await getWalletTotals(h().db, app.org_id), {
    balanceMicros: 180_000_000,
    reservedMicros: RESERVE + 30_000_000,
    safeAvailableMicros: 180_000_000 - RESERVE - 30_000_000,
  });
  await assertExactBooks(t, h().db, app.org_id);
});

test('two drops racing below the threshold charge exactly once', async (t) => {
  const app = await seedApp(h().db, { walletUsd: 52 });
  await enable(app, '50', '100');
  // 52 - 3.30 is already below 50: both reservations see a low wallet and both signal.
  const answers = await Promise.all([purchase(app), purchase(app), purchase(app)]);
  for (const a of answers) t.is(a.status, 200, a.text);
  await rechargeResult(h().temporal, app.org_id);
  const all = await recharges(h().db, app.org_id);
  t.is(all.length, 1, JSON.stringify(all));
  t.is(all[0]!.status, 'succeeded');
  t.is((await topupEntries(h().db, app.org_id)).length, 2);
  t.deepEqual(await getWalletTotals(h().db, app.org_id), {
    balanceMicros: 152_000_000,
    reservedMicros: 3 * RESERVE,
    safeAvailableMicros: 152_000_000 - 3 * RESERVE,
  });
  await assertExactBooks(t, h().db, app.org_id);
});

test('a wallet already short when enabled recharges at once; the credit funds the waiting commissions (catch-up)', async (t) => {
  const app = await seedApp(h().db, { walletUsd: 0 });
  const users = [`cu-a-${tag()}`, `cu-b-${tag()}`];
  for (const user of users) t.is((await purchase(app, user)).body.error, 'insufficient wallet balance');
  await enable(app, '20', '10');
  t.like(await rechargeResult(h().temporal, app.org_id), { outcome: 'succeeded' });
  const commissions = [];
  for (const user of users) commissions.push(...(await commissionsOf(h().db, (await conversionsOfUser(h().db, app.app_id, user))[0].id)));
  t.deepEqual(
    commissions.map((c) => c.status),
    ['reserved', 'reserved'],
    'both funded by the one recharge',
  );
  t.is((await topupEntries(h().db, app.org_id)).length, 1);
  t.deepEqual(await getWalletTotals(h().db, app.org_id), {
    balanceMicros: 10_000_000,
    reservedMicros: 2 * RESERVE,
    safeAvailableMicros: 10_000_000 - 2 * RESERVE,
  });
  await assertExactBooks(t, h().db, app.org_id);
});

test('a declined card is recorded visibly, tried again after the back-off, then auto-recharge turns itself off', async (t) => {
  const app = await seedApp(h().db, { walletUsd: 52 });
  const { path, agentKey } = await enable(app, '50', '100', 'test_card_declined');
  await purchase(app);
  const result = await rechargeResult(h().temporal, app.org_id);
  t.like(result, { outcome: 'disabled', attempts: 2 });
  const all = await recharges(h().db, app.org_id);
  t.deepEqual(
    all.map((p) => p.status),
    ['failed', 'failed'],
  );
  t.regex(all[1]!.failure, /Your card was declined \(test mode/);
  t.is((await topupEntries(h().db, app.org_id)).length, 1, 'only the seed: nothing credited');

  const seen = await wallet(agentKey);
  t.is(seen.body.auto_recharge_enabled, false);
  t.like(seen.body.auto_recharge, { enabled: false, last_result: { status: 'failed', payment_id: all[1]!.id } });
  t.regex(seen.body.auto_recharge.last_result.failure, /Your card was declined/);
  t.regex(seen.body.auto_recharge.disabled_reason, /turned off after 2 failed charge\(s\) in a row; last: Your card was declined/);
  const page = await request(h().baseUrl, 'GET', path, { headers: { accept: 'text/html' } });
  t.regex(page.text, /The service turned it off: turned off after 2 failed charge/);
  t.regex(page.text, /Last recharge \([^)]+\): failed: Your card was declined/);

  // Turned off: the next drop starts nothing.
  const { runId } = await h().temporal.workflow.getHandle(`auto-recharge/${app.org_id}`).describe();
  await purchase(app);
  t.is((await h().temporal.workflow.getHandle(`auto-recharge/${app.org_id}`).describe()).runId, runId, 'no new run');
  t.is((await recharges(h().db, app.org_id)).length, 2);
  await assertExactBooks(t, h().db, app.org_id);
});

test('settings out of the top-up bounds are 422 naming each field, and change nothing', async (t) => {
  const app = await seedApp(h().db, { walletUsd: 52 });
  const { path } = await topupLink(h().baseUrl, h().db, app.org_id);
  const res = await postForm(h().baseUrl, path, enableFields('5', 'abc', { test_card: 'nope' }));
  t.is(res.status, 422);
  t.regex(res.text, /auto_recharge_threshold_usd: The amount must be between \$10\.00 USD and \$50000\.00 USD/);
  t.regex(res.text, /auto_recharge_amount_usd: Enter an amount in US dollars/);
  t.regex(res.text, /test_card: Pick one of the simulated cards/);
  t.is((await postForm(h().baseUrl, path, enableFields('50', '50001', { test_card: 'test_card_ok' }))).status, 422);
  const org = await h().db('organizations').where('id', app.org_id).first();
  t.like(org, { auto_recharge_enabled: false, auto_recharge_threshold_micros: null, auto_recharge_amount_micros: null });
});

test(
  'agents read the settings and cannot change them: no agent ' + 'route or tool writes them, the page refuses an agent credential',
  async (t) => {
    const app = await seedApp(h().db, { walletUsd: 500 });
    const { path, agentKey } = await enable(app, '50', '100');
    const seen = await wallet(agentKey);
    t.is(seen.status, 200, seen.text);
    t.like(seen.body, {
      auto_recharge_enabled: true,
      auto_recharge: {
        enabled: true,
        threshold: 50,
        threshold_micros: 50_000_000,
        amount: 100,
        amount_micros: 100_000_000,
        provider: 'test',
        last_result: null,
        disabled_reason: null,
      },
    });
    t.regex(seen.body.auto_recharge.payment_method, /Simulated test card 4242/);

    // The only wallet rows of the agent table: the read and the top-up link (which moves no money).
    const walletRows = AGENT_ENDPOINTS.filter((e) => /wallet|recharge/.test(e.path)).map((e) => `${e.method} ${e.path}`);
    t.deepEqual(walletRows.sort(), ['get /wallet', 'post /wallet/topup-link']);
    for (const [method, route] of [
      ['PATCH', '/api/agent/wallet'],
      ['POST', '/api/agent/wallet'],
      ['PUT', '/api/agent/wallet/auto-recharge'],
      ['POST', '/api/agent/wallet/auto-recharge'],
    ] as const) {
      const res = await request(h().baseUrl, method, route, { token: agentKey, body: { auto_recharge_enabled: false } });
      // Money writes are hard-denied to every agent (api/agent/hard-denied.ts): 403 naming the denied action.
      t.is(res.status, 403, `${method} ${route}: ${res.status}`);
      t.regex(String(res.body.detail), /'money:write' is denied to every agent/);
    }
    const topupLinkWithBody = await request(h().baseUrl, 'POST', '/api/agent/wallet/topup-link', {
      token: agentKey,
      body: { auto_recharge_enabled: false },
    });
    t.is(topupLinkWithBody.status, 422, 'the link endpoint takes no settings');
    const tools = await request(h().baseUrl, 'POST', '/mcp', {
      token: agentKey,
      headers: { accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    const names: string[] = (JSON.parse(/^data: (.*)$/m.exec(tools.text)?.[1] ?? tools.text).result.tools as { name: string }[]).map(
      (x) => x.name,
    );
    t.true(names.includes('svc_get_wallet'));
    const call = await request(h().baseUrl, 'POST', '/mcp', {
      token: agentKey,
      headers: { accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'svc_get_wallet', arguments: {} } },
    });
    const called = JSON.parse(/^data: (.*)$/m.exec(call.text)?.[1] ?? call.text).result;
    t.like(
      called.structuredContent,
      { auto_recharge_enabled: true, auto_recharge: { enabled: true, threshold: 50, amount: 100 } },
      'the tool reads the same settings',
    );
    t.deepEqual(
      names.filter((n) => /recharge/.test(n)),
      [],
      'no tool names auto-recharge',
    );

    const asAgent = await postForm(h().baseUrl, path, { action: 'auto_recharge_disable' }, { authorization: `Bearer ${agentKey}` });
    t.is(asAgent.status, 403);
    t.like((await wallet(agentKey)).body.auto_recharge, { enabled: true });

    // The human can turn it off on the page.
    const off = await postForm(h().baseUrl, path, { action: 'auto_recharge_disable' });
    t.is(off.status, 200, off.text);
    t.regex(off.text, /Auto-recharge is off/);
    t.like((await wallet(agentKey)).body, {
      auto_recharge_enabled: false,
      auto_recharge: { enabled: false, payment_method: null, disabled_reason: null },
    });
  },
);
