// The wallet page's auto-recharge and payouts over HTTP with a signed-in session: pages and forms need the session
// (an agent key gets the sign-in redirect and changes nothing), every form needs the CSRF token (403), members see
// but cannot change auto-recharge or run payouts (403), another organization's payout run is 404, a confirm posted
// twice pays once, and the ledger holds exactly one payout entry per commission. The commission is earned by the real
// worker and released by its conversion workflow's timer (a holding-period day lasts 500 ms here).
import test from 'ava';
import { AGENT_ENDPOINTS } from '../../api/agent/endpoints.js';
import { refreshPayoutAccount, connectPayoutAccount } from '../../actions/payout-accounts.js';
import { runPayoutRun } from '../../actions/payout-run.js';
import { inputValue } from '../helpers/browser.js';
import { assertExactBooks } from '../helpers/conversions.js';
import { signInDashboard, signInTeammate, type DashboardSession } from '../helpers/dashboard.js';
import { request } from '../helpers/http.js';
import { makePayableCommission } from '../helpers/payable.js';
import { payoutIn } from '../helpers/payouts.js';
import { seedApp } from '../helpers/seed.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';
import { timedRenders } from '../helpers/timed-renders.js';

const { h, seed } = useSeededHarness(test, { env: { HOLDING_PERIOD_DAY_MS: '500', PAYMENT_PROVIDER: 'test' } });
let owner: DashboardSession;
let member: DashboardSession;

test.before(async () => {
  await h.ready();
  owner = await signInDashboard(h().baseUrl, seed.user_email, seed.user_password);
  member = await signInTeammate(h().db, h().baseUrl, seed.org_id, 'member');
});

const url = (path: string) => `${h().baseUrl}${path}`;
const text = (html: string, id: string) => new RegExp(`id="${id}">([^<]*)<`).exec(html)?.[1];
const countRows = async (table: string, where: Record<string, unknown>) =>
  Number((await h().db(table).where(where).count<{ n: string }[]>('* as n'))[0]!.n);

test.serial(
  'auto-recharge: shown from the agent wallet read; session, CSRF and role checked; enabled in test mode and disabled from the page',
  async (t) => {
    const page = await owner.browser.fetch(url('/dashboard/wallet'));
    t.is(page.status, 200);
    t.is(text(page.text, 'ar-state'), 'off');
    t.true(page.text.includes('action="/dashboard/wallet/auto-recharge"'));
    const form = {
      action: 'auto_recharge_enable',
      auto_recharge_threshold_usd: '50',
      auto_recharge_amount_usd: '100',
      test_card: 'test_card_ok',
    };
    const enabled = async () =>
      (await h().db('organizations').where('id', seed.org_id).first('auto_recharge_enabled')).auto_recharge_enabled as boolean;

    // No session (an agent key instead) is sent to sign in; no or a forged CSRF token is 403; a member is 403.
    const agent = await fetch(url('/dashboard/wallet/auto-recharge'), {
      method: 'POST',
      redirect: 'manual',
      headers: { authorization: `Bearer ${seed.agent_key}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form),
    });
    t.true([302, 401].includes(agent.status), `agent key: ${agent.status}`);
    t.is((await owner.browser.fetch(url('/dashboard/wallet/auto-recharge'), { form })).status, 403);
    t.is((await owner.browser.fetch(url('/dashboard/wallet/auto-recharge'), { form: { ...form, csrf: 'forged' } })).status, 403);
    const memberPage = await member.browser.fetch(url('/dashboard/wallet'));
    t.regex(memberPage.text, /Owners and admins change auto-recharge/);
    t.false(memberPage.text.includes('name="auto_recharge_threshold_usd"'));
    const byMember = await member.browser.fetch(url('/dashboard/wallet/auto-recharge'), {
      form: { ...form, csrf: inputValue(memberPage.text, 'csrf')! },
    });
    t.is(byMember.status, 403);
    t.false(await enabled());

    // Bad values: 422 naming each field, nothing changed.
    const csrf = inputValue(page.text, 'csrf')!;
    const bad = await owner.browser.fetch(url('/dashboard/wallet/auto-recharge'), {
      form: { ...form, csrf, auto_recharge_threshold_usd: 'lots', test_card: 'nope' },
    });
    t.is(bad.status, 422);
    t.regex(bad.text, /auto_recharge_threshold_usd: /);
    t.regex(bad.text, /test_card: /);
    t.false(await enabled());

    const on = await owner.browser.fetch(url('/dashboard/wallet/auto-recharge'), { form: { ...form, csrf } });
    t.is(on.status, 200);
    t.regex(on.text, /Auto-recharge is on \(test mode\)/);
    const view = (await request(h().baseUrl, 'GET', '/api/agent/wallet', { token: seed.agent_key })).body.auto_recharge;
    t.like(view, { enabled: true, threshold_micros: 50_000_000, amount_micros: 100_000_000, provider: 'test' });
    t.is(text(on.text, 'ar-state'), 'on');
    t.is(text(on.text, 'ar-threshold'), '$50.00 USD');
    t.is(text(on.text, 'ar-amount'), '$100.00 USD');
    t.is(text(on.text, 'ar-provider'), 'test');
    t.is(text(on.text, 'ar-card'), view.payment_method);
    t.is(text(on.text, 'ar-last'), 'none yet', 'the wallet is above the threshold: no recharge');

    const off = await owner.browser.fetch(url('/dashboard/wallet/auto-recharge'), { form: { action: 'auto_recharge_disable', csrf } });
    t.is(off.status, 200);
    t.is(text(off.text, 'ar-state'), 'off');
    t.false(await enabled());

    // Why the service turned it off is shown (the worker writes the reason after repeated failures).
    await h().db('organizations').where('id', seed.org_id).update({ auto_recharge_disabled_reason: 'the card was declined 3 times' });
    t.is(text((await owner.browser.fetch(url('/dashboard/wallet'))).text, 'ar-disabled-reason'), 'the card was declined 3 times');
    await h().db('organizations').where('id', seed.org_id).update({ auto_recharge_disabled_reason: null });
  },
);

test.serial(
  'payouts: members see but cannot run; a preview, then a confirm posted twice pays once; exact ledger; another organization is 404',
  async (t) => {
    const { db } = h();
    const commission = await makePayableCommission(db, h().baseUrl, seed, 'dash-wallet-payout');
    const moved = commission.commission_micros + commission.platform_fee_micros;

    const wallet = await owner.browser.fetch(url('/dashboard/wallet'));
    t.regex(text(wallet.text, 'payouts-payable') ?? '', /\(1 commission/);
    t.regex(wallet.text, /No payout runs yet/);

    // Members see the section, without the button; previewing or running is 403.
    const memberPage = await member.browser.fetch(url('/dashboard/wallet'));
    t.regex(memberPage.text, /Owners and admins run payouts/);
    t.false(memberPage.text.includes('/dashboard/wallet/payouts/preview'));
    t.is((await member.browser.fetch(url('/dashboard/wallet/payouts/preview'))).status, 403);
    t.is(
      (
        await member.browser.fetch(url('/dashboard/wallet/payouts/run'), {
          form: { csrf: inputValue(memberPage.text, 'csrf')!, run_id: 'member-run' },
        })
      ).status,
      403,
    );

    // The creator connected a payout account (test mode: ready at once); without one every run holds them over.
    await connectPayoutAccount({ db, config: h().config }, commission.creator_id, 'US', { returnUrl: url('/r'), refreshUrl: url('/f') });
    t.like(await refreshPayoutAccount({ db, config: h().config }, commission.creator_id), { ready: true });

    // The preview is a dry run: nothing written; its form carries the run id.
    const ledgerBefore = await countRows('wallet_ledger', { org_id: seed.org_id });
    const preview = await owner.browser.fetch(url('/dashboard/wallet/payouts/preview'));
    t.is(preview.status, 200);
    const runId = inputValue(preview.text, 'run_id')!;
    t.regex(runId, /^run_\d{8}T\d{6}Z_[0-9a-f]{12}$/);
    t.regex(preview.text, /Pay 1 creator /);
    t.is(await countRows('wallet_ledger', { org_id: seed.org_id }), ledgerBefore);
    t.is(await db('payout_runs').where('id', runId).first(), undefined);

    // Without (or with a forged) CSRF token, or with an agent key instead of the session: refused, nothing paid.
    t.is((await owner.browser.fetch(url('/dashboard/wallet/payouts/run'), { form: { run_id: runId } })).status, 403);
    t.is((await owner.browser.fetch(url('/dashboard/wallet/payouts/run'), { form: { run_id: runId, csrf: 'forged' } })).status, 403);
    const agent = await fetch(url('/dashboard/wallet/payouts/run'), {
      method: 'POST',
      redirect: 'manual',
      headers: { authorization: `Bearer ${seed.agent_key}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ run_id: runId }),
    });
    t.true([302, 401].includes(agent.status), `agent key: ${agent.status}`);
    t.is(await db('payout_runs').where('id', runId).first(), undefined);
    t.false(
      AGENT_ENDPOINTS.some((e) => /payout/.test(e.path)),
      'no agent route runs payouts',
    );

    // Confirm, twice (a double submit): one run, one payout, one ledger entry per commission.
    const csrf = inputValue(preview.text, 'csrf')!;
    const first = await owner.browser.fetch(url('/dashboard/wallet/payouts/run'), { form: { csrf, run_id: runId } });
    t.is(first.status, 303);
    t.is(first.location, url(`/dashboard/wallet/payouts/${runId}`));
    const second = await owner.browser.fetch(url('/dashboard/wallet/payouts/run'), { form: { csrf, run_id: runId } });
    t.is(second.status, 303);
    t.is(second.location, url(`/dashboard/wallet/payouts/${runId}?again=1`));
    t.is(await countRows('payouts', { run_id: runId }), 1);
    t.like(await db('commissions').where('id', commission.id).first(), { status: 'paid' });
    const entries = await db('wallet_ledger').where({ org_id: seed.org_id, entry_type: 'payout' });
    t.is(entries.length, 1);
    t.like(entries[0], { commission_id: commission.id, balance_delta_micros: -moved, reserved_delta_micros: -moved });
    t.is(await countRows('wallet_ledger', { org_id: seed.org_id }), ledgerBefore + 1);
    await assertExactBooks(t, db, seed.org_id);
    t.truthy(await db('audit_log').where({ action: 'dashboard.run_payouts', target_id: runId }).first());
    t.is(await countRows('audit_log', { action: 'dashboard.run_payouts', target_id: runId }), 1);

    const again = await owner.browser.fetch(second.location!);
    t.is(again.status, 200);
    t.regex(again.text, /already been paid: nothing was paid again/);
    t.true(again.text.includes(commission.creator_id));
    await payoutIn(db, seed.org_id, commission.creator_id, 'transferred');
    t.regex(
      (await owner.browser.fetch(url(`/dashboard/wallet/payouts/${runId}`))).text,
      /paid(<\/span>)? \(tr_test_/,
      'the run page shows the transfer (the state word is a pill: api/view-kit/visual.tsx StateText)',
    );
    const after = await owner.browser.fetch(url('/dashboard/wallet'));
    t.true(after.text.includes(`data-run="${runId}"`));
    t.regex(text(after.text, 'payouts-paid') ?? '', /\(1\)/);
    t.regex(text(after.text, 'payouts-payable') ?? '', /^\$0\.00 USD \(0 commission/);
    t.is((await member.browser.fetch(url(`/dashboard/wallet/payouts/${runId}`))).status, 200, 'members see runs');

    // Another organization's run: 404 to read, 404 to confirm, and it stays as it was.
    const other = await seedApp(db);
    await runPayoutRun({ db }, { orgId: other.org_id, runId: `other-${other.org_id}` });
    t.is((await owner.browser.fetch(url(`/dashboard/wallet/payouts/other-${other.org_id}`))).status, 404);
    const foreign = await owner.browser.fetch(url('/dashboard/wallet/payouts/run'), { form: { csrf, run_id: `other-${other.org_id}` } });
    t.is(foreign.status, 404);
    t.is(await countRows('payouts', { org_id: seed.org_id }), 1);
    t.is((await owner.browser.fetch(url('/dashboard/wallet/payouts/run'), { form: { csrf, run_id: 'bad id!' } })).status, 422);
  },
);

test.serial('the wallet page renders server-side in one request, every input labelled, no JavaScript', async (t) => {
  const renders = await timedRenders(11, () => owner.browser.fetch(url('/dashboard/wallet')));
  t.deepEqual(renders.statuses, Array(11).fill(200));
  const html = renders.last.text;
  t.log(`wallet page: p50 ${renders.p50.toFixed(1)} ms, max ${renders.max.toFixed(1)} ms over 11 renders`);
  t.true(renders.p50 < 1000);
  for (const id of [...html.matchAll(/<input id="([^"]+)"/g)].map((m) => m[1]!))
    t.true(html.includes(`<label for="${id}">`), `input ${id} has a label`);
  t.deepEqual(
    [...html.matchAll(/<script[^>]*>/g)].map((m) => /src="([^"]+)"/.exec(m[0])?.[1]),
    ['/dashboard/static/dashboard.js'],
    'only the enhancement script: the page works without it',
  );
});
