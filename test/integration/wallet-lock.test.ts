// The organization lock reads the wallet as the previous lock holder left it (db/wallet-ledger.ts LOCKED_WALLET_SQL,
// migration 0047). A statement waiting on `for update` keeps its snapshot from before the wait, so the totals must
// be read after the lock is granted: else a purchase that waited behind a reservation decides on the wallet
// without it and reserves money that is no longer there. Here a transaction holds the lock with an uncommitted
// reservation while a purchase arrives; the purchase waits, and once the holder commits it must see the wallet short.
import test from 'ava';
import { getWalletTotals } from '../../db/wallet-ledger.js';
import { appendLedgerEntry, lockOrganization } from '../../db/wallet-ledger-writes.js';
import { assertExactBooks, commissionsOf, conversionsOfUser } from '../helpers/conversions.js';
import { useHarness } from '../helpers/harness.js';
import { seedApp } from '../helpers/seed.js';
import { sendWebhook, subscription } from '../helpers/subprovider-events.js';

const h = useHarness(test);
test.before(async () => {
  await h.ready();
});

const RESERVE = 3_000_000 + 300_000; // 9.99 USD at 30 % plus the 10 % platform fee

/** The holder's stand-in reservation (no commission behind it) given back, so the books check finds none left. */
const releaseHeld = (orgId: string) =>
  appendLedgerEntry(h().db, {
    orgId,
    entryType: 'release',
    balanceDeltaMicros: 0,
    reservedDeltaMicros: -8_000_000,
    idempotencyKey: `lock-test-release-${orgId}`,
    memo: 'held reservation given back',
  });

/** Whether `promise` is still pending after `ms`. */
async function pendingAfter(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  await new Promise((resolve) => setTimeout(resolve, ms));
  return !settled;
}

test('lockOrganization waiting behind a holder reads the totals the holder committed', async (t) => {
  const app = await seedApp(h().db, { walletUsd: 10 });
  const holder = await h().db.transaction();
  await lockOrganization(holder, app.org_id);
  await appendLedgerEntry(holder, {
    orgId: app.org_id,
    entryType: 'reserve',
    balanceDeltaMicros: 0,
    reservedDeltaMicros: 8_000_000,
    idempotencyKey: `lock-test-${app.org_id}`,
    memo: 'held reservation',
  });
  const waiter = h().db.transaction((trx) => lockOrganization(trx, app.org_id));
  t.true(await pendingAfter(waiter, 300), 'the second locker waits for the first');
  await holder.commit();
  t.deepEqual(await waiter, { balanceMicros: 10_000_000, reservedMicros: 8_000_000, safeAvailableMicros: 2_000_000 });
  await releaseHeld(app.org_id);
});

test('a purchase that waited for the lock behind a reservation is unfunded when the reservation left too little', async (t) => {
  const app = await seedApp(h().db, { walletUsd: 10 });
  const holder = await h().db.transaction();
  await lockOrganization(holder, app.org_id);
  await appendLedgerEntry(holder, {
    orgId: app.org_id,
    entryType: 'reserve',
    balanceDeltaMicros: 0,
    reservedDeltaMicros: 8_000_000,
    idempotencyKey: `lock-test-${app.org_id}`,
    memo: 'held reservation',
  });
  const user = `lock-user-${app.app_id}`;
  const sent = sendWebhook(h().baseUrl, app.app_id, app.webhook_secret, subscription(user, app.creator_code)('initial_purchase'));
  t.true(await pendingAfter(sent, 1500), 'the purchase waits for the organization lock');
  await holder.commit();
  const res = await sent;
  t.is(res.status, 200, res.text);
  t.is(res.body.error, 'insufficient wallet balance', 'decided on the wallet as the holder left it: 2.00 USD safe, 3.30 USD needed');
  const [conversion] = await conversionsOfUser(h().db, app.app_id, user);
  t.deepEqual(
    (await commissionsOf(h().db, conversion!.id)).map((c) => c.status),
    ['unfunded'],
  );
  const wallet = await getWalletTotals(h().db, app.org_id);
  t.deepEqual(
    wallet,
    { balanceMicros: 10_000_000, reservedMicros: 8_000_000, safeAvailableMicros: 2_000_000 },
    'nothing reserved past the balance',
  );
  t.true(wallet.safeAvailableMicros < RESERVE);
  await releaseHeld(app.org_id);
  await assertExactBooks(t, h().db, app.org_id);
});
