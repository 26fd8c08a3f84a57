// What each subscription lifecycle does to money, row by row (labelled lifecycles, one organization each so the
// ledger of a row is exactly its own): the commissions it leaves, the conversion's final status, and the wallet
// afterwards, checked against the sums of its entries and against the causes of every reservation.
import test, { type ExecutionContext } from 'ava';
import { createAgentKey } from '../../db/agent-keys-writes.js';
import { findWalletDiscrepancies, getWalletTotals } from '../../db/wallet-ledger.js';
import { addCreator, assertExactBooks, commissionsOf, conversionsOfUser } from '../helpers/conversions.js';
import { useHarness } from '../helpers/harness.js';
import { request } from '../helpers/http.js';
import { seedApp, type SeededApp } from '../helpers/seed.js';
import { sendWebhook, subscription, type FixtureName, type ProviderBody } from '../helpers/subprovider-events.js';

const h = useHarness(test, { env: { TRUST_PROXY: 'true' } });
test.before(async () => {
  await h.ready();
});

const TOPUP = 1_000_000_000;
/** 9.99 USD at 30 %: commission 3.00 USD, platform fee 10 % of it, reserved together. */
const PAID_30 = 3_000_000 + 300_000;

interface Ctx {
  t: ExecutionContext;
  app: SeededApp;
  user: string;
}
type Send = (
  name: FixtureName,
  overrides?: Record<string, unknown>,
  code?: string | null,
) => Promise<{ body: ProviderBody; error: string | undefined }>;

interface Row {
  label: string;
  /** Plays the lifecycle through the public webhook (and, where it says so, the SDK). */
  run(send: Send, ctx: Ctx): Promise<void>;
  /** [kind, status, commission_micros] of the user's commissions, in order. */
  commissions: [string, string, number][];
  status: string;
  reservedMicros: number;
  /** Campaign commission percentage at the start (default 30). */
  percentage?: number;
}

const ROWS: Row[] = [
  {
    label: 'paid purchase and two renewals: three periods reserved',
    run: async (send) => {
      await send('initial_purchase');
      await send('renewal');
      await send('renewal');
    },
    commissions: [
      ['earn', 'reserved', 3_000_000],
      ['earn', 'reserved', 3_000_000],
      ['earn', 'reserved', 3_000_000],
    ],
    status: 'active',
    reservedMicros: 3 * PAID_30,
  },
  {
    label: 'trial converting: the free period earns nothing, the first paid period earns',
    run: async (send) => {
      await send('initial_purchase_trial');
      await send('renewal_trial_conversion');
    },
    commissions: [['earn', 'reserved', 3_000_000]],
    status: 'active',
    reservedMicros: PAID_30,
  },
  {
    label: 'organic trial whose user enters a code before it converts: attributed at conversion',
    run: async (send, { t, app, user }) => {
      const trial = await send('initial_purchase_trial', {}, null);
      t.is(trial.error, 'no referral code (organic purchase)');
      const entered = await request(h().baseUrl, 'POST', '/api/sdk/set-referral-code', {
        token: app.sdk_key,
        body: { code: app.creator_code, app_user_id: user },
        headers: { 'x-forwarded-for': `198.51.100.${Math.floor(Math.random() * 200) + 1}` },
      });
      t.is(entered.status, 200, entered.text);
      await send('renewal_trial_conversion', {}, null);
    },
    commissions: [['earn', 'reserved', 3_000_000]],
    status: 'active',
    reservedMicros: PAID_30,
  },
  {
    label: 'renewal refunded, then renewed again: only that period is reversed and the subscription is active again',
    run: async (send) => {
      await send('initial_purchase');
      const renewal = await send('renewal');
      await send('refund', { transaction_id: renewal.body.event.transaction_id });
      await send('renewal');
    },
    commissions: [
      ['earn', 'reserved', 3_000_000],
      ['earn', 'reversed', 3_000_000],
      ['reversal', 'reversed', -3_000_000],
      ['earn', 'reserved', 3_000_000],
    ],
    status: 'active',
    reservedMicros: 2 * PAID_30,
  },
  {
    label: 'refund of a transaction never purchased: recorded with its reason, nothing reversed',
    run: async (send, { t, app }) => {
      await send('initial_purchase');
      const refund = await send('refund', { transaction_id: 'never-purchased-1' });
      t.regex(refund.error ?? '', /refund of transaction never-purchased-1 matches no purchase of this subscription/);
      const key = await createAgentKey(h().db, { orgId: app.org_id, name: 'test', scopes: ['integration:verify'] });
      const recent = await request(h().baseUrl, 'GET', `/api/agent/apps/${app.app_id}/events/recent`, { token: key.key });
      const seen = (recent.body.webhooks as { type?: string; event_type?: string; error: string | null }[]).find((w) =>
        /never-purchased-1/.test(w.error ?? ''),
      );
      t.truthy(seen, recent.text);
    },
    commissions: [['earn', 'reserved', 3_000_000]],
    status: 'active',
    reservedMicros: PAID_30,
  },
  {
    label: 'refund, percentage raised to 50 %, REFUND_REVERSED: the 30 % commission comes back, once',
    run: async (send, { app }) => {
      const first = await send('initial_purchase');
      const tx = first.body.event.transaction_id as string;
      await h().db('campaigns').where('id', app.campaign_id).update({ commission_percentage: 50 });
      await send('refund', { transaction_id: tx });
      await send('refund_reversed', { transaction_id: tx });
      await send('refund_reversed', { transaction_id: tx });
    },
    commissions: [
      ['earn', 'reversed', 3_000_000],
      ['reversal', 'reversed', -3_000_000],
      ['earn', 'reserved', 3_000_000],
    ],
    status: 'active',
    reservedMicros: PAID_30,
  },
  {
    label: 'restored period refunded again: the restored commission is reversed',
    run: async (send) => {
      const first = await send('initial_purchase');
      const tx = first.body.event.transaction_id as string;
      await send('refund', { transaction_id: tx });
      await send('refund_reversed', { transaction_id: tx });
      await send('refund', { transaction_id: tx });
    },
    commissions: [
      ['earn', 'reversed', 3_000_000],
      ['reversal', 'reversed', -3_000_000],
      ['earn', 'reversed', 3_000_000],
      ['reversal', 'reversed', -3_000_000],
    ],
    status: 'refunded',
    reservedMicros: 0,
  },
  {
    label: 'one-time purchase, then its refund',
    run: async (send) => {
      const bought = await send('non_renewing_purchase', { price: 4.99 });
      await send('refund', {
        transaction_id: bought.body.event.transaction_id,
        original_transaction_id: bought.body.event.transaction_id,
        price: -4.99,
      });
    },
    commissions: [
      ['earn', 'reversed', 1_500_000],
      ['reversal', 'reversed', -1_500_000],
    ],
    status: 'refunded',
    reservedMicros: 0,
  },
  {
    label: 'one-time purchase kept',
    run: async (send) => {
      await send('non_renewing_purchase', { price: 4.99 });
    },
    commissions: [['earn', 'reserved', 1_500_000]],
    status: 'active',
    reservedMicros: 1_500_000 + 150_000,
  },
];

for (const row of ROWS) {
  test(`lifecycle: ${row.label}`, async (t) => {
    const app = await seedApp(h().db, { commissionPercentage: row.percentage ?? 30 });
    const user = `life-${Math.random().toString(36).slice(2, 10)}`;
    const sub = subscription(user, app.creator_code);
    const send = async (name: FixtureName, overrides: Record<string, unknown> = {}, code?: string | null) => {
      const body = sub(name, overrides);
      if (code === null) delete body.event.subscriber_attributes;
      const res = await sendWebhook(h().baseUrl, app.app_id, app.webhook_secret, body);
      t.is(res.status, 200, res.text);
      return { body, error: res.body.error as string | undefined };
    };
    await row.run(send, { t, app, user });
    const [conversion, ...others] = await conversionsOfUser(h().db, app.app_id, user);
    t.is(others.length, 0);
    t.is(conversion.status, row.status);
    const commissions = await commissionsOf(h().db, conversion.id);
    t.deepEqual(
      commissions.map((c) => [c.kind, c.status, c.commission_micros]),
      row.commissions,
    );
    t.deepEqual(await getWalletTotals(h().db, app.org_id), {
      balanceMicros: TOPUP,
      reservedMicros: row.reservedMicros,
      safeAvailableMicros: TOPUP - row.reservedMicros,
    });
    await assertExactBooks(t, h().db, app.org_id);
  });
}

test('lifecycle: sandbox purchase, then production for the same user: the sandbox creator never binds the user', async (t) => {
  const app = await seedApp(h().db);
  const other = await addCreator(h().db, { ...app, creator_code: app.creator_code });
  const user = `life-sandbox-${Math.random().toString(36).slice(2, 10)}`;
  const sandbox = subscription(user, app.creator_code)('sandbox_initial_purchase');
  sandbox.event.original_transaction_id = sandbox.event.transaction_id;
  t.is((await sendWebhook(h().baseUrl, app.app_id, app.webhook_secret, sandbox)).status, 200);
  const production = await sendWebhook(h().baseUrl, app.app_id, app.webhook_secret, subscription(user, other.code)('initial_purchase'));
  t.is(production.body.error, undefined, production.text);
  const conversions = await conversionsOfUser(h().db, app.app_id, user);
  t.deepEqual(
    conversions.map((c) => [c.environment, c.referral_code]),
    [
      ['SANDBOX', app.creator_code],
      ['PRODUCTION', other.code],
    ],
  );
  t.is((await h().db('user_attributions').where({ app_id: app.app_id, app_user_id: user }).first())?.referral_code, other.code);
  const prodCommissions = await commissionsOf(h().db, conversions[1].id);
  t.deepEqual(
    prodCommissions.map((c) => [c.creator_id, c.status]),
    [[other.creatorId, 'reserved']],
  );
  t.deepEqual(await getWalletTotals(h().db, app.org_id), {
    balanceMicros: TOPUP,
    reservedMicros: PAID_30,
    safeAvailableMicros: TOPUP - PAID_30,
  });
  await assertExactBooks(t, h().db, app.org_id);
});

test('the ledger identity check finds a wallet whose shown totals differ from its entries', async (t) => {
  const app = await seedApp(h().db);
  await h()
    .db.transaction(async (trx) => {
      // Triggers off for this transaction only: a corrupt running total the append-only ledger would never write.
      await trx.raw('set local session_replication_role = replica');
      await trx('wallet_ledger').insert({
        org_id: app.org_id,
        entry_type: 'adjustment',
        balance_delta_micros: 5,
        reserved_delta_micros: 0,
        idempotency_key: `corrupt:${app.org_id}`,
        balance_after_micros: TOPUP,
        reserved_after_micros: 0,
        created_by: 'test',
      });
      const found = await findWalletDiscrepancies(trx);
      t.deepEqual(
        found.map((d) => [d.orgId, d.shown.balanceMicros, d.summed.balanceMicros]),
        [[app.org_id, TOPUP, TOPUP + 5]],
      );
      await trx.rollback();
    })
    .catch(() => undefined);
  t.deepEqual(await findWalletDiscrepancies(h().db), []);
});
