// Payouts in the embedded test mode (`svc dev`'s default without Stripe): connecting needs no provider page and the
// account is ready at once, labelled as test mode; an owner sets the minimum payout and the schedule's period on the
// wallet page (bad input is 422 with the message beside the field and what was typed kept; others are 403); the
// schedule, triggered on the dev server, pays the creator and the run page lists the transfer; test mode is refused
// under NODE_ENV=production.
import test from 'ava';
import { randomBytes } from 'node:crypto';
import { payoutProviderNamed } from '../../clients/payouts/select.js';
import { ConfigError, loadConfig } from '../../runtime/config.js';
import { payoutScheduleId } from '../../workflows/payout-run-messages.js';
import { inputValue } from '../helpers/browser.js';
import { assertExactBooks } from '../helpers/conversions.js';
import { signInDashboard, signInTeammate, type DashboardSession } from '../helpers/dashboard.js';
import { request } from '../helpers/http.js';
import { makePayableCommission } from '../helpers/payable.js';
import { CREATOR_HEADER, mountConnect, payoutIn } from '../helpers/payouts.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';

const { h, seed } = useSeededHarness(test, { env: { HOLDING_PERIOD_DAY_MS: '500' }, mount: mountConnect });
let owner: DashboardSession;
let admin: DashboardSession;

test.before(async () => {
  await h.ready();
  owner = await signInDashboard(h().baseUrl, seed.user_email, seed.user_password);
  admin = await signInTeammate(h().db, h().baseUrl, seed.org_id, 'admin');
});

const url = (path: string) => `${h().baseUrl}${path}`;

test.serial('test mode: connect, set the schedule as an owner, a triggered scheduled run pays and the run page lists it', async (t) => {
  const { db } = h();
  const commission = await makePayableCommission(db, h().baseUrl, seed, 'test-mode-payout');
  const as = { [CREATOR_HEADER]: commission.creator_id };
  const started = await request(h().baseUrl, 'POST', '/creator/payouts/connect', { body: {}, headers: as });
  t.is(started.status, 303);
  t.is(started.headers.get('location'), url('/creator/payouts/return'), 'no provider page in test mode');
  const back = await request(h().baseUrl, 'GET', '/creator/payouts/return', { headers: as });
  t.is(back.headers.get('location'), `${h().config.DASHBOARD_URL}/creator?payouts=ready`);
  const status = await request(h().baseUrl, 'GET', '/creator/payouts/status', { headers: as });
  t.like(status.body, { connected: true, ready: true, provider: 'test', country: 'US', problems: [] });
  t.regex(status.body.provider_label, /^Test mode: no real money moves/);

  const wallet = await owner.browser.fetch(url('/dashboard/wallet'));
  t.regex(wallet.text, /runs on demand only/);
  const csrf = inputValue(wallet.text, 'csrf')!;
  const bad = await owner.browser.fetch(url('/dashboard/wallet/payouts/settings'), {
    form: { csrf, minimum_usd: '12.345', period_hours: 'daily' },
  });
  t.is(bad.status, 422);
  t.regex(bad.text, /id="minimum_usd-error"> Enter an amount in USD/);
  t.regex(bad.text, /id="period_hours-error"> Enter whole hours/);
  t.is(inputValue(bad.text, 'minimum_usd'), '12.345', 'what was typed is kept');
  t.is(await db('payout_settings').where('org_id', seed.org_id).first(), undefined, 'nothing stored');
  const adminPage = await admin.browser.fetch(url('/dashboard/wallet'));
  t.regex(adminPage.text, /Owners change the payout settings/);
  t.is(
    (
      await admin.browser.fetch(url('/dashboard/wallet/payouts/settings'), {
        form: { csrf: inputValue(adminPage.text, 'csrf')!, minimum_usd: '1', period_hours: '1' },
      })
    ).status,
    403,
  );
  const agent = await fetch(url('/dashboard/wallet/payouts/settings'), {
    method: 'POST',
    redirect: 'manual',
    headers: { authorization: `Bearer ${seed.agent_key}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ minimum_usd: '1', period_hours: '1' }),
  });
  t.true([302, 401].includes(agent.status), `agent key: ${agent.status}`);

  const saved = await owner.browser.fetch(url('/dashboard/wallet/payouts/settings'), {
    form: { csrf, minimum_usd: '0.50', period_hours: '168' },
  });
  t.is(saved.status, 303, saved.text);
  t.like(await db('payout_settings').where('org_id', seed.org_id).first(), { minimum_payout_micros: 500_000, period_hours: 168 });
  const schedule = h().temporal.schedule.getHandle(payoutScheduleId(seed.org_id));
  t.teardown(() => schedule.delete().catch(() => undefined));
  const described = await schedule.describe();
  t.like(described.policies, { overlap: 'SKIP', catchupWindow: 24 * 3_600_000 });
  t.deepEqual(
    described.spec.intervals?.map((i) => i.every),
    [168 * 3_600_000],
  );
  await schedule.trigger();

  const payout = await payoutIn(db, seed.org_id, commission.creator_id, 'transferred');
  t.is(payout.transfer_id, `tr_test_${payout.id}`);
  t.like(await db('commissions').where('id', commission.id).first(), { status: 'paid', payout_id: payout.id });
  const page = await owner.browser.fetch(url(`/dashboard/wallet/payouts/${encodeURIComponent(payout.run_id)}`));
  t.is(page.status, 200);
  // The cell's state word is a pill (api/view-kit/visual.tsx StateText), then the transfer id.
  t.regex(page.text, new RegExp(`data-status="paid"><span [^>]*>paid</span> \\(tr_test_${payout.id}\\)`));
  await assertExactBooks(t, db, seed.org_id);
});

test('test mode is refused under NODE_ENV=production', (t) => {
  const production = {
    NODE_ENV: 'production',
    BASE_URL: 'https://svc.example.com',
    SVC_MASTER_KEY: randomBytes(32).toString('base64'),
    DATABASE_URL: 'postgres://x@127.0.0.1/x',
  };
  const err = t.throws(() => loadConfig({ ...production, PAYOUT_PROVIDER: 'test' }), { instanceOf: ConfigError });
  t.regex(err.message, /PAYOUT_PROVIDER=test/);
  t.is(payoutProviderNamed(loadConfig(production), 'test'), undefined, 'an account opened in test mode is never paid in production');
});
