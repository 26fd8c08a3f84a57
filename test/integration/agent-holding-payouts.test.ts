// The agent API's side of the holding period and payouts, over HTTP: campaigns read and write
// `holding_period_days` (validated, 422 naming the field), the wallet shows commissions by state (held, payable,
// paid) and outstanding clawbacks as they move, and no agent route or tool can start a payout.
import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { AGENT_ENDPOINTS, endpointTools } from '../../api/agent/endpoints.js';
import { createAgentKey } from '../../db/agent-keys-writes.js';
import { runPayoutRun } from '../../actions/payout-run.js';
import { connectTestAccount } from '../helpers/payouts.js';
import { SCOPES } from '../../lib/scopes.js';
import { PROJECT_ROOT } from '../../runtime/temporal-binaries.js';
import { assertExactBooks } from '../helpers/conversions.js';
import { request } from '../helpers/http.js';
import { useHarness } from '../helpers/harness.js';
import { seedApp } from '../helpers/seed.js';
import { sendWebhook, subscription } from '../helpers/subprovider-events.js';
import { waitFor } from '../helpers/svc-processes.js';

const h = useHarness(test, { env: { HOLDING_PERIOD_DAY_MS: '500' } });

async function account() {
  const app = await seedApp(h().db);
  const key = await createAgentKey(h().db, { orgId: app.org_id, name: 'test', scopes: SCOPES });
  const agent = (method: string, p: string, body?: unknown) => request(h().baseUrl, method, `/api/agent${p}`, { token: key.key, body });
  return { ...app, agent };
}

test('campaigns read and write holding_period_days (default 30); bad values are 422 naming the field and change nothing', async (t) => {
  const acct = await account();
  const created = await acct.agent('POST', `/apps/${acct.app_id}/campaigns`, { name: 'Held', commission_percentage: 20 });
  t.is(created.status, 201, created.text);
  t.is(created.body.holding_period_days, 30);
  const short = await acct.agent('POST', `/apps/${acct.app_id}/campaigns`, {
    name: 'Short',
    commission_percentage: 20,
    holding_period_days: 7,
  });
  t.is(short.body.holding_period_days, 7);
  const patched = await acct.agent('PATCH', `/campaigns/${created.body.id}`, { holding_period_days: 0 });
  t.is(patched.status, 200, patched.text);
  t.is(patched.body.holding_period_days, 0);
  t.is((await acct.agent('GET', `/campaigns/${created.body.id}`)).body.holding_period_days, 0);
  for (const bad of [-1, 366, 1.5, '30', null]) {
    const res = await acct.agent('PATCH', `/campaigns/${created.body.id}`, { holding_period_days: bad });
    t.is(res.status, 422, `${JSON.stringify(bad)}: ${res.text}`);
    t.true(JSON.stringify(res.body.detail).includes('holding_period_days'), res.text);
  }
  const refused = await acct.agent('POST', `/apps/${acct.app_id}/campaigns`, {
    name: 'Bad',
    commission_percentage: 20,
    holding_period_days: 400,
  });
  t.is(refused.status, 422);
  t.is(await h().db('campaigns').where({ app_id: acct.app_id, name: 'Bad' }).first(), undefined, 'nothing half-written');
  t.is((await acct.agent('GET', `/campaigns/${created.body.id}`)).body.holding_period_days, 0, 'unchanged by the refused patches');
});

test('the wallet shows commissions held, payable and paid, and clawbacks outstanding, as they move', async (t) => {
  const acct = await account();
  await h().db('campaigns').where('id', acct.campaign_id).update({ holding_period_days: 1 });
  const sub = subscription('wallet-states', acct.creator_code);
  const first = sub('initial_purchase');
  const sent = await sendWebhook(h().baseUrl, acct.app_id, acct.webhook_secret, first);
  t.is(sent.status, 200, sent.text);
  const commission = await h().db('commissions').where({ org_id: acct.org_id, kind: 'earn' }).first();
  const wallet = async () => (await acct.agent('GET', '/wallet')).body;
  const c = commission.commission_micros as number;
  const held = await wallet();
  t.like(held.commissions, { held: { count: 1, amount_micros: c }, payable: { count: 0 }, paid: { count: 0 } });
  t.is(held.reserved_micros, c + (commission.platform_fee_micros as number));

  await waitFor(async () => (await wallet()).commissions.payable.count === 1, 'the release', 20_000);
  const payable = await wallet();
  t.like(payable.commissions, { held: { count: 0 }, payable: { count: 1, amount_micros: c } });
  t.is(payable.reserved_micros, held.reserved_micros, 'a payable commission stays reserved until it is paid');

  await connectTestAccount(h().db, acct.creator_id);
  await runPayoutRun({ db: h().db }, { orgId: acct.org_id, runId: `wallet-${acct.org_id}` });
  const paid = await wallet();
  t.like(paid.commissions, { payable: { count: 0 }, paid: { count: 1, amount_micros: c } });
  t.is(paid.reserved_micros, 0);
  t.is(paid.balance_micros, held.balance_micros - held.reserved_micros);

  const refund = await sendWebhook(
    h().baseUrl,
    acct.app_id,
    acct.webhook_secret,
    sub('refund', { transaction_id: first.event.transaction_id }),
  );
  t.is(refund.status, 200, refund.text);
  const owed = await wallet();
  t.like(owed.clawbacks_outstanding, { count: 1, amount_micros: c });
  t.like(owed.commissions, { paid: { count: 1 } });
  await assertExactBooks(t, h().db, acct.org_id);
});

test(
  'no agent route or tool can start a payout: only the operator ' + 'CLI and the dashboard (sessions of humans) call the payout function',
  (t) => {
    for (const e of AGENT_ENDPOINTS) {
      t.false(/payout/i.test(e.path), `agent route ${e.path}`);
      for (const tool of endpointTools(e)) t.false(/payout/i.test(tool.name), `agent tool ${tool.name}`);
    }
    // The domain function is reachable from the CLI and the dashboard's session-only wallet page only: nothing else
    // under api/ (agent API, tool server, webhooks, links) imports it.
    const sources = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
        d.isDirectory() ? sources(path.join(dir, d.name)) : /\.tsx?$/.test(d.name) ? [path.join(dir, d.name)] : [],
      );
    const callers = sources(path.join(PROJECT_ROOT, 'api')).filter((f) =>
      /actions\/payout-run\.js|db\/payouts\.js|runPayoutRun/.test(readFileSync(f, 'utf8')),
    );
    t.deepEqual(
      callers.map((f) => path.relative(PROJECT_ROOT, f)),
      ['api/dashboard/wallet/wallet-payouts.tsx'],
    );
  },
);
