// A milestone's whole life, as an agent and an operator drive it: rules set through the tool server, production
// purchases through the provider webhook (the real worker) reach a threshold, the award (with creator and progress)
// is approved through the tool, `svc payouts run` pays it as an award line with one `payout` entry, and a paid award
// can no longer be reviewed (409 naming its state). Another award is voided after approval and its reservation is
// back. A rule saved while creators are already past it awards them when it is saved, and re-saving the same list
// (or dropping and restoring the rule) awards nobody twice. An approved award a refund flagged waits for its
// reviewer: a payout run leaves it until it is kept (approve) or voided.
import test from 'ava';
import { createAgentKey } from '../../db/agent-keys-writes.js';
import { saveBonusRules } from '../../db/bonus-rules-writes.js';
import { runPayoutRun } from '../../actions/payout-run.js';
import { connectTestAccount } from '../helpers/payouts.js';
import { SCOPES } from '../../lib/scopes.js';
import { cliEnv, runSvc } from '../helpers/cli.js';
import { addCreator, assertExactBooks, type Creator } from '../helpers/conversions.js';
import { useHarness } from '../helpers/harness.js';
import { request } from '../helpers/http.js';
import { connectMcp, ok, readJsonResource, textOf, type McpSession } from '../helpers/mcp.js';
import { seedApp, type SeededApp } from '../helpers/seed.js';
import { sendWebhook, subscription } from '../helpers/subprovider-events.js';
import { waitFor } from '../helpers/svc-processes.js';

const h = useHarness(test);
test.before(async () => {
  await h.ready();
});

interface Award {
  id: string;
  status: string;
  amount_micros: number;
  creator: { id: string; name: string };
  progress: { qualifying_conversions: number; threshold_conversions: number; reached: boolean };
  needs_review: boolean;
  review_decisions: string[];
  bonus_rule_id: string;
  payout_id: string | null;
}

let n = 0;
async function buy(app: SeededApp, code: string): Promise<{ transactionId: string; send: ReturnType<typeof subscription> }> {
  const send = subscription(`milestone-${Date.now()}-${n++}`, code);
  const initial = send('initial_purchase');
  const res = await sendWebhook(h().baseUrl, app.app_id, app.webhook_secret, initial);
  if (res.status !== 200 || res.body.error) throw new Error(res.text);
  return { transactionId: initial.event.transaction_id as string, send };
}

async function account(): Promise<SeededApp & { key: string; mcp: McpSession }> {
  const app = await seedApp(h().db);
  await connectTestAccount(h().db, app.creator_id);
  const key = await createAgentKey(h().db, { orgId: app.org_id, name: 'agent', scopes: SCOPES });
  const mcp = await connectMcp(h().baseUrl, key.key);
  return { ...app, key: key.key, mcp };
}

const awardsOf = async (a: { mcp: McpSession; campaign_id: string }): Promise<Award[]> =>
  ok<{ bonus_awards: Award[] }>(await a.mcp.call('svc_list_bonus_awards', { campaign_id: a.campaign_id })).bonus_awards;
const wallet = async (a: { mcp: McpSession }) =>
  ok<{ balance_micros: number; reserved_micros: number; safe_available_micros: number }>(await a.mcp.call('svc_get_wallet'));

async function svcPayouts(orgId: string, runId: string) {
  const res = await runSvc(['payouts', 'run', '--org', orgId, '--run-id', runId, '--json'], cliEnv({ DATABASE_URL: h().database.url }));
  if (res.code !== 0) throw new Error(`svc payouts run failed (${res.code}): ${res.stderr}`);
  return JSON.parse(res.stdout) as Awaited<ReturnType<typeof runPayoutRun>>;
}

test(
  'rules through the tool server; a threshold reached, approved, paid ' +
    'by svc payouts run; a second award voided after approval; paid is final',
  async (t) => {
    const a = await account();
    t.teardown(() => a.mcp.close());
    const tools = new Map((await a.mcp.client.listTools()).tools.map((x) => [x.name, x]));
    t.truthy(
      (tools.get('svc_update_campaign')!.inputSchema.properties as Record<string, unknown>).bonus_rules,
      'the tool takes bonus_rules',
    );
    t.regex(tools.get('svc_review_bonus_award')!.description ?? '', /voids an approved award until it is paid/);
    const contract = await readJsonResource(a.mcp.client, 'svc://contract');
    t.regex(contract.milestone_bonuses.campaign_field, /bonus_rules/);
    t.regex(contract.milestone_bonuses.award_states, /approved -> voided \(releases the reservation\) until paid/);

    const saved = ok<{ bonus_rules: { id: string; threshold_conversions: number }[] }>(
      await a.mcp.call('svc_update_campaign', {
        campaign_id: a.campaign_id,
        bonus_rules: [
          { threshold_conversions: 2, bonus_usd: 20 },
          { threshold_conversions: 3, bonus_usd: 5, name: 'Three' },
        ],
      }),
    );
    const ruleTwo = saved.bonus_rules.find((r) => r.threshold_conversions === 2)!.id;
    const other: Creator = await addCreator(h().db, a);

    await buy(a, a.creator_code);
    t.deepEqual(await awardsOf(a), [], 'one conversion is below every threshold');
    await buy(a, a.creator_code);
    await buy(a, other.code);
    await buy(a, other.code);
    const sandbox = subscription(`milestone-sandbox-${n++}`, a.creator_code)('sandbox_initial_purchase');
    t.is((await sendWebhook(h().baseUrl, a.app_id, a.webhook_secret, sandbox)).status, 200);

    const awards = await awardsOf(a);
    t.is(awards.length, 2, 'each creator reached the threshold 2 once; sandbox purchases do not count toward 3');
    const mine = awards.find((x) => x.creator.id === a.creator_id)!;
    const theirs = awards.find((x) => x.creator.id === other.creatorId)!;
    t.like(mine, {
      status: 'earned',
      amount_micros: 20_000_000,
      bonus_rule_id: ruleTwo,
      creator: { name: 'Test Creator' },
      review_decisions: ['approve', 'void'],
    });
    t.deepEqual(
      mine.progress,
      { qualifying_conversions: 2, threshold_conversions: 2, reached: true },
      'the award lists the creator and the progress',
    );

    // Approve one; approve and then void the other: its reservation is back, in the same transaction.
    const start = await wallet(a);
    t.like(ok(await a.mcp.call('svc_review_bonus_award', { award_id: mine.id, decision: 'approve' })), {
      status: 'approved',
      review_decisions: ['void'],
    });
    const afterOne = await wallet(a);
    t.is(afterOne.reserved_micros, start.reserved_micros + 20_000_000, 'approval reserves the award amount, no platform fee');
    ok(await a.mcp.call('svc_review_bonus_award', { award_id: theirs.id, decision: 'approve' }));
    t.is((await wallet(a)).reserved_micros, afterOne.reserved_micros + 20_000_000);
    t.like(ok(await a.mcp.call('svc_review_bonus_award', { award_id: theirs.id, decision: 'void', note: 'duplicate account' })), {
      status: 'voided',
    });
    t.deepEqual(await wallet(a), afterOne, 'voiding the approved award released exactly its reservation');
    await assertExactBooks(t, h().db, a.org_id);

    // The operator's payout run pays the approved award beside the (still held) commissions: an award line.
    const run = await svcPayouts(a.org_id, `bonus-${a.org_id}`);
    t.is(run.payouts.length, 1);
    t.like(run.payouts[0], {
      creator_id: a.creator_id,
      commission_count: 0,
      award_count: 1,
      awards_micros: 20_000_000,
      gross_micros: 20_000_000,
      fees_micros: 0,
      net_micros: 20_000_000,
    });
    t.deepEqual(run.payouts[0]!.awards, [
      { award_id: mine.id, bonus_rule_id: ruleTwo, campaign_id: a.campaign_id, threshold_conversions: 2, amount_micros: 20_000_000 },
    ]);
    const paid = await wallet(a);
    t.is(paid.balance_micros, afterOne.balance_micros - 20_000_000, 'the award left the wallet');
    t.is(paid.reserved_micros, afterOne.reserved_micros - 20_000_000, 'its reservation was consumed');
    const entries = await h()
      .db('wallet_ledger')
      .where({ bonus_award_id: mine.id })
      .orderBy('id')
      .select('entry_type', 'balance_delta_micros', 'reserved_delta_micros', 'external_ref');
    t.deepEqual(
      entries.map((e) => [e.entry_type, Number(e.balance_delta_micros), Number(e.reserved_delta_micros)]),
      [
        ['reserve', 0, 20_000_000],
        ['payout', -20_000_000, -20_000_000],
      ],
    );
    t.is(entries[1].external_ref, run.payouts[0]!.payout_id);
    const again = await svcPayouts(a.org_id, `bonus-${a.org_id}`);
    t.like(again, { already_run: true });
    t.deepEqual(again.payouts[0]!.awards, run.payouts[0]!.awards, 'the recorded payout lists the same award line');

    const after = (await awardsOf(a)).find((x) => x.id === mine.id)!;
    t.like(after, { status: 'paid', payout_id: run.payouts[0]!.payout_id, review_decisions: [] });
    for (const decision of ['approve', 'void']) {
      const refused = await a.mcp.call('svc_review_bonus_award', { award_id: mine.id, decision });
      t.true(refused.isError);
      t.regex(textOf(refused), /'paid'/);
      const rest = await request(h().baseUrl, 'POST', `/api/agent/bonus-awards/${mine.id}/review`, { token: a.key, body: { decision } });
      t.is(rest.status, 409);
      t.regex(rest.body.detail, /Bonus award is 'paid'/);
    }
    await assertExactBooks(t, h().db, a.org_id);
  },
);

test(
  'a rule saved while creators are past it awards them at once; re-saving, or ' +
    'dropping and restoring it, awards nobody twice; amount edits apply to future awards',
  async (t) => {
    const a = await account();
    t.teardown(() => a.mcp.close());
    const other = await addCreator(h().db, a);
    const late = await addCreator(h().db, a);
    for (const code of [a.creator_code, a.creator_code, a.creator_code, other.code, other.code, late.code]) await buy(a, code);
    const refunded = await buy(a, late.code);
    t.is(
      (await sendWebhook(h().baseUrl, a.app_id, a.webhook_secret, refunded.send('refund', { transaction_id: refunded.transactionId })))
        .status,
      200,
    );
    t.deepEqual(await awardsOf(a), [], 'no rules yet: no awards');

    const list = [
      { threshold_conversions: 2, bonus_usd: 10 },
      { threshold_conversions: 3, bonus_usd: 30 },
    ];
    ok(await a.mcp.call('svc_update_campaign', { campaign_id: a.campaign_id, bonus_rules: list }));
    const awarded = await awardsOf(a);
    const pairs = (xs: Award[]) => xs.map((x) => `${x.creator.id}:${x.progress.threshold_conversions}`).sort();
    t.deepEqual(
      pairs(awarded),
      [`${a.creator_id}:2`, `${a.creator_id}:3`, `${other.creatorId}:2`].sort(),
      'awarded when saved, by unreversed production paid conversions (the refunded one does not count)',
    );
    t.like(
      awarded.find((x) => x.creator.id === a.creator_id && x.progress.threshold_conversions === 3),
      { status: 'earned', amount_micros: 30_000_000, progress: { qualifying_conversions: 3 } },
    );

    ok(await a.mcp.call('svc_update_campaign', { campaign_id: a.campaign_id, bonus_rules: list }));
    t.is((await awardsOf(a)).length, 3, 're-saving the same list awards nobody twice');
    ok(await a.mcp.call('svc_update_campaign', { campaign_id: a.campaign_id, bonus_rules: [list[0]] }));
    ok(
      await a.mcp.call('svc_update_campaign', {
        campaign_id: a.campaign_id,
        bonus_rules: [list[0], { threshold_conversions: 3, bonus_usd: 45 }],
      }),
    );
    t.is((await awardsOf(a)).length, 3, 'a rule dropped and restored is the same rule: no second award');
    t.is(
      (await awardsOf(a)).find((x) => x.progress.threshold_conversions === 3)!.amount_micros,
      30_000_000,
      'the earned award keeps the amount it was earned at',
    );

    // The late creator reaches 3 now: the edited amount applies to this future award.
    await buy(a, late.code);
    await buy(a, late.code);
    const lateAwards = (await awardsOf(a)).filter((x) => x.creator.id === late.creatorId);
    t.deepEqual(lateAwards.map((x) => [x.progress.threshold_conversions, x.amount_micros]).sort(), [
      [2, 10_000_000],
      [3, 45_000_000],
    ]);
    const unique = await h().db('bonus_awards').where('campaign_id', a.campaign_id).select('bonus_rule_id', 'creator_id');
    t.is(new Set(unique.map((u) => `${u.bonus_rule_id}:${u.creator_id}`)).size, unique.length);
    await assertExactBooks(t, h().db, a.org_id);
  },
);

test(
  'an approved award a refund flagged shows the flag and both ' + 'ways out; a payout run leaves it until the reviewer keeps it',
  async (t) => {
    const a = await account();
    t.teardown(() => a.mcp.close());
    ok(await a.mcp.call('svc_update_campaign', { campaign_id: a.campaign_id, bonus_rules: [{ threshold_conversions: 2, bonus_usd: 8 }] }));
    const first = await buy(a, a.creator_code);
    await buy(a, a.creator_code);
    const [award] = await awardsOf(a);
    ok(await a.mcp.call('svc_review_bonus_award', { award_id: award!.id, decision: 'approve' }));
    t.is(
      (await sendWebhook(h().baseUrl, a.app_id, a.webhook_secret, first.send('refund', { transaction_id: first.transactionId }))).status,
      200,
    );

    const flagged = (await awardsOf(a))[0]!;
    t.like(flagged, {
      status: 'approved',
      needs_review: true,
      review_decisions: ['approve', 'void'],
      progress: { qualifying_conversions: 1, reached: false },
    });
    const reserved = (await wallet(a)).reserved_micros;
    t.deepEqual(
      (await runPayoutRun({ db: h().db }, { orgId: a.org_id, runId: 'flagged-dry', dryRun: true })).payouts,
      [],
      'a flagged award is not paid before its review',
    );

    const kept = ok<Award>(
      await a.mcp.call('svc_review_bonus_award', { award_id: flagged.id, decision: 'approve', note: 'refund was a mistake' }),
    );
    t.like(kept, { status: 'approved', needs_review: false, review_decisions: ['void'] });
    t.is((await wallet(a)).reserved_micros, reserved, 'keeping it reserves nothing more');
    const dry = await runPayoutRun({ db: h().db }, { orgId: a.org_id, runId: 'kept-dry', dryRun: true });
    t.deepEqual(
      dry.payouts.map((p) => p.awards.map((x) => x.award_id)),
      [[flagged.id]],
    );
    await assertExactBooks(t, h().db, a.org_id);
  },
);

test(
  'a purchase racing a rule save: it read "no rules" before the save ' +
    'committed, waited on the organization lock, and still earns the award',
  async (t) => {
    const a = await account();
    t.teardown(() => a.mcp.close());
    await buy(a, a.creator_code);
    const save = await h().db.transaction();
    try {
      t.is(
        await saveBonusRules(save, a.campaign_id, [{ thresholdConversions: 2, bonusMicros: 9_000_000, name: 'Two' }]),
        0,
        'one conversion: nothing to award yet',
      );
      // The purchase reads its campaign's terms (no rule is committed yet), then waits for the lock the save holds.
      const racing = buy(a, a.creator_code);
      await waitFor(
        async () => {
          const { rows } = await h().db.raw<{ rows: { n: number }[] }>(`select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock' and query ilike '%from organizations%for update%'`);
          return rows[0]!.n > 0;
        },
        'the purchase waiting on the organization lock',
        20_000,
      );
      await save.commit();
      await racing;
    } finally {
      if (!save.isCompleted()) await save.rollback();
    }
    const awards = await awardsOf(a);
    t.is(awards.length, 1, 'the earn saw the rule committed while it waited');
    t.like(awards[0], { amount_micros: 9_000_000, progress: { qualifying_conversions: 2, threshold_conversions: 2 } });
  },
);
