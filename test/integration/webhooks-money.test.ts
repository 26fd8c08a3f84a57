// POST /api/webhooks/subprovider/{app_id}: what purchases do to money. The wallet reserves commission + platform fee
// (PLATFORM_FEE_PERCENT, default 10, of the commission) per paid production purchase; sandbox purchases only
// simulate; the ledger always balances; milestone bonuses count production, non-refunded conversions only.
// Tests that assert wallet totals get an organization of their own (seedAccount), so they can run concurrently.
import test, { type ExecutionContext } from 'ava';
import type { Knex } from 'knex';
import { getWalletTotals, sumWalletLedger } from '../../db/wallet-ledger.js';
import { appendLedgerEntry } from '../../db/wallet-ledger-writes.js';
import { addCampaign, addCreator, commissionsOf, conversionsOfUser, ledgerEntriesOf, type Creator } from '../helpers/conversions.js';
import { useHarness } from '../helpers/harness.js';
import type { JsonResponse } from '../helpers/http.js';
import { seedAccount } from '../helpers/seed.js';
import { sendWebhook, subscription, type ProviderBody } from '../helpers/subprovider-events.js';

type Seed = Awaited<ReturnType<typeof seedAccount>>;
const h = useHarness(test);
let seed: Seed;

test.before(async () => {
  await h.ready();
  seed = await seedAccount(h().db);
});

const TOPUP = 1_000_000_000; // seedAccount tops the wallet up with 1000 USD

async function send(t: ExecutionContext, account: Seed, body: ProviderBody, expectedError?: string): Promise<JsonResponse> {
  const res = await sendWebhook(h().baseUrl, account.app_id, account.webhook_secret, body);
  t.is(res.status, 200, res.text);
  t.is(res.body.error, expectedError, `${body.event.type}: ${res.text}`);
  return res;
}

/** The ledger invariant: what is reserved is exactly commission + fee of the commissions still reserved. */
async function ledgerBalances(db: Knex, orgId: string) {
  const ledger = await db('wallet_ledger')
    .where('org_id', orgId)
    .first<{ balance: string; reserved: string }>(
      db.raw('coalesce(sum(balance_delta_micros), 0) as balance'),
      db.raw('coalesce(sum(reserved_delta_micros), 0) as reserved'),
    );
  const held = await db('commissions')
    .where({ org_id: orgId, status: 'reserved' })
    .first<{ held: string }>(db.raw('coalesce(sum(commission_micros + platform_fee_micros), 0) as held'));
  return { balance: Number(ledger.balance), reserved: Number(ledger.reserved), heldByReservedCommissions: Number(held.held) };
}

test(
  'sandbox purchases (SANDBOX, XCODE, LOCAL_TESTING) are attributed and ' +
    'visible but only simulate commission: no ledger entry, wallet unchanged',
  async (t) => {
    const account = await seedAccount(h().db);
    const before = await getWalletTotals(h().db, account.org_id);
    for (const environment of ['SANDBOX', 'XCODE', 'LOCAL_TESTING']) {
      const user = `sandbox-${environment}`;
      const sub = subscription(user, account.creator_code);
      const initial = sub('sandbox_initial_purchase', { environment });
      initial.event.original_transaction_id = initial.event.transaction_id;
      await send(t, account, initial);
      await send(t, account, sub('renewal', { environment, original_transaction_id: initial.event.original_transaction_id }));
      await send(
        t,
        account,
        sub('refund', {
          environment,
          original_transaction_id: initial.event.original_transaction_id,
          transaction_id: initial.event.transaction_id,
        }),
      );
      const [c] = await conversionsOfUser(h().db, account.app_id, user);
      t.like(c, { environment, is_test: true, attributed: true, referral_code: account.creator_code, billing_cycles: 2 }, environment);
      const commissions = await commissionsOf(h().db, c.id);
      t.deepEqual(
        commissions.map((x) => [x.kind, x.status, x.environment]),
        [
          ['earn', 'simulated', environment],
          ['earn', 'simulated', environment],
          ['reversal', 'simulated', environment],
        ],
        environment,
      );
      t.is(commissions[0].commission_micros, 3_000_000, 'the simulated amount is what production would earn');
      t.deepEqual(
        await ledgerEntriesOf(
          h().db,
          commissions.map((x) => x.id),
        ),
        [],
        environment,
      );
    }
    t.is(
      await h()
        .db('wallet_ledger')
        .where('org_id', account.org_id)
        .whereNot('entry_type', 'topup')
        .count('* as n')
        .first()
        .then((r) => Number(r?.n)),
      0,
    );
    t.deepEqual(await getWalletTotals(h().db, account.org_id), before);
  },
);

test('insufficient wallet: the commission is recorded unfunded without a ledger entry and the webhook answers the error', async (t) => {
  const account = await seedAccount(h().db);
  const res = await send(
    t,
    account,
    subscription('money-unfunded', account.creator_code)('initial_purchase', { price: 5000 }),
    'insufficient wallet balance',
  );
  const [c] = await conversionsOfUser(h().db, account.app_id, 'money-unfunded');
  t.like(c, { attributed: true, status: 'active' });
  const commissions = await commissionsOf(h().db, c.id);
  t.deepEqual(
    commissions.map((x) => [x.kind, x.status, x.commission_micros, x.platform_fee_micros]),
    [['earn', 'unfunded', 1_500_000_000, 150_000_000]],
  );
  t.deepEqual(await ledgerEntriesOf(h().db, [commissions[0].id]), []);
  t.like(await h().db('purchase_events').where('id', res.body.event_id).first(), {
    processing_status: 'error',
    error: 'insufficient wallet balance',
    conversion_id: c.id,
  });
  t.deepEqual(await getWalletTotals(h().db, account.org_id), { balanceMicros: TOPUP, reservedMicros: 0, safeAvailableMicros: TOPUP });
});

test('a reservation beyond 2^31 micro-USD (a $10,000 purchase: $3,300 reserved) is written exactly', async (t) => {
  const account = await seedAccount(h().db);
  await appendLedgerEntry(h().db, {
    orgId: account.org_id,
    entryType: 'topup',
    balanceDeltaMicros: 10_000_000_000,
    reservedDeltaMicros: 0,
    idempotencyKey: `topup:big:${account.org_id}`,
  });
  await send(t, account, subscription('money-big', account.creator_code)('initial_purchase', { price: 10_000 }));
  const [c] = await conversionsOfUser(h().db, account.app_id, 'money-big');
  const [earn] = await commissionsOf(h().db, c.id);
  t.like(earn, { status: 'reserved', commission_micros: 3_000_000_000, platform_fee_micros: 300_000_000 });
  t.deepEqual(
    (await ledgerEntriesOf(h().db, [earn.id])).map((e) => Number(e.reserved_delta_micros)),
    [3_300_000_000],
  );
  t.deepEqual(await getWalletTotals(h().db, account.org_id), {
    balanceMicros: TOPUP + 10_000_000_000,
    reservedMicros: 3_300_000_000,
    safeAvailableMicros: TOPUP + 6_700_000_000,
  });
});

test('the ledger balances exactly after purchases, renewals, refunds, a refund reversal and an unfunded commission', async (t) => {
  const account = await seedAccount(h().db);
  const code = account.creator_code;

  const a = subscription('ledger-a', code);
  const refundedRenewal = a('renewal', { price: 14.99 });
  const b = subscription('ledger-b', code);
  const oneTime = b('non_renewing_purchase', { price: 4.99 });
  oneTime.event.original_transaction_id = oneTime.event.transaction_id;
  const c = subscription('ledger-c', code);
  const cInitial = c('initial_purchase');
  const d = subscription('ledger-d', code);
  const unfunded = d('initial_purchase', { price: 5000 });

  await Promise.all([
    (async () => {
      await send(t, account, a('initial_purchase'));
      await send(t, account, refundedRenewal);
      await send(t, account, a('renewal', { price: 19.99 }));
      await send(t, account, a('refund', { transaction_id: refundedRenewal.event.transaction_id, price: -14.99 }));
    })(),
    (async () => {
      await send(t, account, oneTime);
      await send(
        t,
        account,
        b('refund_customer_support', {
          original_transaction_id: oneTime.event.transaction_id,
          transaction_id: oneTime.event.transaction_id,
          price: -4.99,
        }),
      );
    })(),
    (async () => {
      await send(t, account, cInitial);
      await send(t, account, c('refund', { transaction_id: cInitial.event.transaction_id }));
      await send(t, account, c('refund_reversed', { transaction_id: cInitial.event.transaction_id }));
    })(),
    (async () => {
      await send(t, account, unfunded, 'insufficient wallet balance');
      await send(t, account, d('renewal'));
      await send(t, account, d('refund', { transaction_id: unfunded.event.transaction_id, price: -5000 }));
    })(),
  ]);

  const statuses = await h()
    .db('commissions')
    .where({ org_id: account.org_id, kind: 'earn' })
    .orderBy('created_at')
    .select('status', 'commission_micros');
  t.deepEqual(
    statuses.map((x) => `${x.commission_micros}:${x.status}`).sort(),
    [
      '1500000:reversed', // b: one-time 4.99, refunded
      '1500000000:reversed', // d: unfunded 5000, refunded (nothing was reserved, nothing released)
      '3000000:reserved', // a: initial
      '3000000:reserved', // c: restored after REFUND_REVERSED
      '3000000:reserved', // d: renewal, funded
      '3000000:reversed', // c: initial, refunded
      '4500000:reversed', // a: renewal 14.99, refunded
      '6000000:reserved', // a: renewal 19.99
    ].sort(),
  );
  const totals = await ledgerBalances(h().db, account.org_id);
  t.is(totals.reserved, totals.heldByReservedCommissions);
  t.is(totals.reserved, 3 * 3_300_000 + 6_600_000);
  t.is(totals.balance, TOPUP, 'commissions never move the balance, only the reservation');
  const unfundedEntries = await h()
    .db('wallet_ledger as w')
    .join('commissions as c', 'c.id', 'w.commission_id')
    .where('c.org_id', account.org_id)
    .where('c.commission_micros', 1_500_000_000)
    .count<{ n: string }[]>('* as n')
    .first();
  t.is(Number(unfundedEntries?.n), 0, 'an unfunded commission never touches the ledger, not even when refunded');
});

test(
  'amounts are whole cents, rounded half away from zero once, end ' +
    'to end (0.05 at 33.333% is 0.0166665 -> 0.02, its fee 0.002 -> 0.00)',
  async (t) => {
    const campaignId = await addCampaign(h().db, seed, 33.333);
    const creator = await addCreator(h().db, seed, campaignId);
    await send(t, seed, subscription('money-rounding', creator.code)('initial_purchase', { price: 0.05 }));
    const [c] = await conversionsOfUser(h().db, seed.app_id, 'money-rounding');
    const [earn] = await commissionsOf(h().db, c.id);
    t.like(earn, {
      status: 'reserved',
      revenue_usd_micros: 50_000,
      commission_micros: 20_000,
      platform_fee_micros: 0,
      commission_percentage: '33.333',
    });
    t.deepEqual(
      (await ledgerEntriesOf(h().db, [earn.id])).map((e) => e.reserved_delta_micros),
      [20_000],
    );
  },
);

test('bonus rules: sandbox and refunded conversions do not count toward a milestone; production ones do, exactly once', async (t) => {
  const campaignId = await addCampaign(h().db, seed);
  await h().db('bonus_rules').insert({ campaign_id: campaignId, name: 'Two sales', threshold_conversions: 2, bonus_micros: 25_000_000 });
  const awardsOf = (creator: Creator) =>
    h().db('bonus_awards').where({ campaign_id: campaignId, creator_id: creator.creatorId }).select('*');

  // 1 refunded + 3 sandbox, then 1 production: progress 1 of 2, no award.
  const discounted = await addCreator(h().db, seed, campaignId);
  const refunded = subscription('bonus-refunded', discounted.code);
  const refundedInitial = refunded('initial_purchase');
  await send(t, seed, refundedInitial);
  await send(t, seed, refunded('refund', { transaction_id: refundedInitial.event.transaction_id }));
  for (const environment of ['SANDBOX', 'XCODE', 'LOCAL_TESTING']) {
    await send(t, seed, subscription(`bonus-sandbox-${environment}`, discounted.code)('sandbox_initial_purchase', { environment }));
  }
  await send(t, seed, subscription('bonus-production', discounted.code)('initial_purchase'));
  t.deepEqual(await awardsOf(discounted), []);

  // 2 production conversions: exactly one award, earned, with the rule's amount; a 3rd adds nothing.
  const achiever = await addCreator(h().db, seed, campaignId);
  await send(t, seed, subscription('bonus-first', achiever.code)('initial_purchase'));
  t.deepEqual(await awardsOf(achiever), []);
  await send(t, seed, subscription('bonus-second', achiever.code)('initial_purchase'));
  await send(t, seed, subscription('bonus-third', achiever.code)('initial_purchase'));
  const awards = await awardsOf(achiever);
  t.is(awards.length, 1);
  t.like(awards[0], { status: 'earned', amount_micros: 25_000_000, threshold_conversions: 2, progress_count: 2, org_id: seed.org_id });
});

test('the running wallet totals always equal the sums over the ledger, also under concurrent reservations', async (t) => {
  const own = await seedAccount(h().db);
  const send = (body: unknown) => sendWebhook(h().baseUrl, own.app_id, own.webhook_secret, body);
  await Promise.all(
    Array.from({ length: 24 }, (_, i) => subscription(`running-${i}`, own.creator_code)).map(async (sub, i) => {
      await send(sub('initial_purchase'));
      await send(sub('renewal'));
      if (i % 3 === 0) await send(sub('refund', { transaction_id: undefined }));
    }),
  );
  t.deepEqual(await getWalletTotals(h().db, own.org_id), await sumWalletLedger(h().db, own.org_id));
  t.true((await getWalletTotals(h().db, own.org_id)).reservedMicros > 0);
});

test('ledger entries written concurrently by many transactions keep exact running totals', async (t) => {
  const { appendLedgerEntry } = await import('../../db/wallet-ledger-writes.js');
  const own = await seedAccount(h().db);
  await Promise.all(
    Array.from({ length: 60 }, (_, i) =>
      h().db.transaction(async (trx) => {
        // Reserves and releases in equal numbers, so no reservation is left without a cause (the books check after each test).
        const [entryType, balanceDeltaMicros, reservedDeltaMicros] = (
          [
            ['topup', 1000, 0],
            ['reserve', 0, 7],
            ['release', 0, -7],
          ] as const
        )[i % 3]!;
        await appendLedgerEntry(trx, {
          orgId: own.org_id,
          entryType,
          balanceDeltaMicros,
          reservedDeltaMicros,
          idempotencyKey: `race:${own.org_id}:${i}`,
        });
        await new Promise((r) => setTimeout(r, i % 5)); // keep some transactions open while others commit
      }),
    ),
  );
  t.deepEqual(await getWalletTotals(h().db, own.org_id), await sumWalletLedger(h().db, own.org_id));
});
