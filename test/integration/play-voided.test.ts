// Android refunds through Google's Voided Purchases API (issue 12: "a voided purchase is a refund"): the poll
// play-voided-sync/{app_id} started at activation reverses exactly the voided period's commission, once however
// often the void is seen; a later /sdk/purchase report of a lapsed subscription carries the refund itself; a void
// we never recorded is ignored with its reason; sandbox voids move no money; the worker start resumes the polls of
// apps already switched. The stubs speak Google's wire format (voidedpurchases.list with type=1 and token paging).
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { googlePlayClientFor } from '../../clients/google-play.js';
import { loadCredential } from '../../db/store-credentials.js';
import { resumeVoidedPolls } from '../../jobs/play-voided-resume.js';
import { SecretBox } from '../../lib/secret-box.js';
import { playVoidedSyncWorkflowId, pollVoidedNowUpdate, type PlayVoidedSyncSummary } from '../../workflows/play-voided-sync-messages.js';
import { createDb } from '../../runtime/db.js';
import { startPgCutProxy, type PgCutProxy } from '../helpers/pg-cut-proxy.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';
import {
  ledgerOf,
  newOrderId,
  reportPurchase,
  setPlaySubscription,
  storeAccount,
  type StoreAccount,
  switchToStoreDirect,
  useStoreWorld,
} from '../helpers/store-direct.js';

// The worker reaches PostgreSQL through a proxy that can drop the connection of one statement (the credential read).
let proxy: PgCutProxy | undefined;
const { h } = useSeededHarness(test, {
  workerDb: async (database) => {
    proxy = await startPgCutProxy(database.url);
    return createDb(proxy.url, 5);
  },
});
test.after.always(async () => {
  await proxy?.close();
});
const world = useStoreWorld(test, h);

/** Asks the app's poll for a poll now; answers that poll's summary. */
const pollNow = (a: StoreAccount): Promise<PlayVoidedSyncSummary> =>
  h().temporal.workflow.getHandle(playVoidedSyncWorkflowId(a.app_id)).executeUpdate(pollVoidedNowUpdate);

/** An account switched to Android store-direct whose poll has run once (so a void set later is seen by our poll only). */
async function androidAccount(): Promise<StoreAccount> {
  const a = await storeAccount(h(), { walletUsd: 1000 });
  await switchToStoreDirect(h(), world(), a, 'android');
  t0(await pollNow(a));
  return a;
}
function t0(s: PlayVoidedSyncSummary) {
  if (!s.active || s.error) throw new Error(`first poll: ${JSON.stringify(s)}`);
}

const setSubscription = (token: string, orderId: string, opts: { state?: string; test?: boolean } = {}) =>
  setPlaySubscription(world(), token, orderId, opts);

const voidOrder = (a: StoreAccount, token: string, orderId: string, subscription = true) => {
  world().google.voided.push({
    packageName: a.packageName,
    purchaseToken: token,
    orderId,
    voidedTimeMillis: String(Date.now() - 5_000),
    purchaseTimeMillis: String(Date.now() - 86_400_000),
    voidedSource: 0,
    voidedReason: 1,
    subscription,
  });
};

const commissionsOf = (a: StoreAccount) =>
  h()
    .db('commissions as c')
    .join('purchase_events as p', 'p.id', 'c.purchase_event_id')
    .where('c.app_id', a.app_id)
    .orderBy('c.created_at')
    .orderBy('c.kind')
    .select('p.transaction_id', 'c.kind', 'c.status', 'c.environment', 'c.commission_micros', 'c.platform_fee_micros');
const refundsOf = (a: StoreAccount, orderId: string) =>
  h().db('purchase_events').where({ app_id: a.app_id, transaction_id: orderId, event_type: 'REFUND' });

test.serial(
  "a renewal voided in Google Play: the poll reverses exactly that period's commission, once however often it is polled",
  async (t) => {
    const a = await androidAccount();
    const token = `sub-${randomUUID()}`;
    const orderId = newOrderId();
    setSubscription(token, orderId);
    const bought = await reportPurchase(h(), a, {
      platform: 'android',
      purchase_token: token,
      app_user_id: 'ana',
      referral_code: a.creator_code,
    });
    t.is(bought.status, 200, bought.text);
    t.like(bought.body, { event_type: 'INITIAL_PURCHASE', environment: 'PRODUCTION' });
    setSubscription(token, `${orderId}..0`);
    const renewed = await reportPurchase(h(), a, { platform: 'android', purchase_token: token, app_user_id: 'ana' });
    t.like(renewed.body, { event_type: 'RENEWAL', duplicate: false });

    voidOrder(a, token, `${orderId}..0`);
    const first = await pollNow(a);
    t.like(first, { active: true, listed: 1, refunded: 1, ignored: 0, error: null });
    const voidCall = world()
      .google.calls.filter((c) => c.path.endsWith(`/applications/${a.packageName}/purchases/voidedpurchases`))
      .at(-1)!;
    t.is(new URLSearchParams(voidCall.query).get('type'), '1', 'subscriptions are listed (type=1)');

    // The renewal's commission is reversed; the initial period's stays reserved.
    const expected = [
      [orderId, 'earn', 'reserved', 'PRODUCTION', 3_000_000, 300_000],
      [`${orderId}..0`, 'earn', 'reversed', 'PRODUCTION', 3_000_000, 300_000],
    ];
    const commissions = await commissionsOf(a);
    t.deepEqual(
      commissions
        .filter((c) => c.kind === 'earn')
        .map((c) => [c.transaction_id, c.kind, c.status, c.environment, Number(c.commission_micros), Number(c.platform_fee_micros)]),
      expected,
    );
    t.is(commissions.filter((c) => c.kind === 'reversal').length, 1);
    const ledger = [
      ['topup', 1_000_000_000, 0],
      ['reserve', 0, 3_300_000],
      ['reserve', 0, 3_300_000],
      ['reversal', 0, -3_300_000],
    ];
    t.deepEqual(await ledgerOf(h(), a), ledger);
    t.like(await h().db('conversions').where({ app_id: a.app_id, conversion_key: token }).first(), {
      status: 'refunded',
      billing_cycles: 2,
    });

    // Seen again (the window overlaps) and again: the same event, no second reversal.
    t.like(await pollNow(a), { listed: 1, refunded: 1 });
    t.like(await pollNow(a), { listed: 1, refunded: 1 });
    t.is((await refundsOf(a, `${orderId}..0`)).length, 1);
    t.is((await commissionsOf(a)).length, 3);
    t.deepEqual(await ledgerOf(h(), a), ledger);
    const row = await h()
      .db('play_voided_purchases')
      .where({ app_id: a.app_id, order_id: `${orderId}..0` })
      .first();
    t.like(row, { outcome: 'refund', kind: 'subscription', seen: 3, reason: null, voided_reason: 1, voided_source: 0 });
    t.truthy(row.purchase_event_id);
    const cursor = await h().db('play_voided_cursors').where('app_id', a.app_id).first();
    t.like(cursor, { last_error: null });
    t.true(Number(cursor.synced_until_ms) > Date.now() - 60_000);
  },
);

test.serial('a later report of a lapsed subscription carries the void as its refund; the poll then finds the same event', async (t) => {
  const a = await androidAccount();
  const token = `sub-${randomUUID()}`;
  const orderId = newOrderId();
  setSubscription(token, orderId);
  t.is(
    (await reportPurchase(h(), a, { platform: 'android', purchase_token: token, app_user_id: 'bo', referral_code: a.creator_code })).status,
    200,
  );

  // Still paid up: the report reads no voided list.
  const listCalls = () =>
    world().google.calls.filter((c) => c.path.endsWith(`/applications/${a.packageName}/purchases/voidedpurchases`)).length;
  const before = listCalls();
  t.like((await reportPurchase(h(), a, { platform: 'android', purchase_token: token })).body, {
    event_type: 'INITIAL_PURCHASE',
    duplicate: true,
  });
  t.is(listCalls(), before);

  voidOrder(a, token, orderId);
  setSubscription(token, orderId, { state: 'SUBSCRIPTION_STATE_EXPIRED' });
  const voided = await reportPurchase(h(), a, { platform: 'android', purchase_token: token, app_user_id: 'bo' });
  t.is(voided.status, 200, voided.text);
  t.like(voided.body, {
    validated: 'google_play',
    environment: 'PRODUCTION',
    event_type: 'REFUND',
    duplicate: false,
    recorded: true,
    result: { processed: true },
  });
  t.like(await h().db('conversions').where({ app_id: a.app_id, conversion_key: token }).first(), { status: 'refunded' });
  const ledger = [
    ['topup', 1_000_000_000, 0],
    ['reserve', 0, 3_300_000],
    ['reversal', 0, -3_300_000],
  ];
  t.deepEqual(await ledgerOf(h(), a), ledger);

  const again = await reportPurchase(h(), a, { platform: 'android', purchase_token: token, app_user_id: 'bo' });
  t.like(again.body, { event_type: 'REFUND', duplicate: true, result: { event_id: voided.body.result.event_id } });
  t.like(await pollNow(a), { listed: 1, refunded: 1 });
  t.is((await refundsOf(a, orderId)).length, 1);
  t.deepEqual(
    (await commissionsOf(a)).map((c) => [c.kind, c.status]),
    [
      ['earn', 'reversed'],
      ['reversal', 'reversed'],
    ],
  );
  t.deepEqual(await ledgerOf(h(), a), ledger);
});

test.serial(
  "a void we never recorded is ignored with its reason; a sandbox void moves no money; a one-time void keeps the report's key",
  async (t) => {
    const a = await androidAccount();
    const stranger = newOrderId();
    voidOrder(a, `unknown-${randomUUID()}`, stranger);

    const sandboxToken = `sub-${randomUUID()}`;
    const sandboxOrder = newOrderId();
    setSubscription(sandboxToken, sandboxOrder, { test: true });
    t.like((await reportPurchase(h(), a, { platform: 'android', purchase_token: sandboxToken, referral_code: a.creator_code })).body, {
      environment: 'SANDBOX',
    });
    voidOrder(a, sandboxToken, sandboxOrder);

    const productToken = `tok-${randomUUID()}`;
    const productOrder = newOrderId();
    const bought = { purchaseState: 0, orderId: productOrder, purchaseTimeMillis: String(Date.now() - 3_600_000), productId: 'coins' };
    world().google.products.set(`coins/${productToken}`, bought);
    const body = {
      platform: 'android',
      purchase_token: productToken,
      product_id: 'coins',
      price: 4.99,
      currency: 'USD',
      referral_code: a.creator_code,
    };
    t.is((await reportPurchase(h(), a, body)).status, 200);
    voidOrder(a, productToken, productOrder, false);

    const summary = await pollNow(a);
    t.like(summary, { listed: 3, refunded: 2, ignored: 1, error: null });
    const ignored = await h().db('play_voided_purchases').where({ app_id: a.app_id, order_id: stranger }).first();
    t.like(ignored, { outcome: 'ignored', kind: null, purchase_event_id: null });
    t.regex(ignored.reason, new RegExp(`order ${stranger.replace(/\./g, '\\.')} matches no recorded purchase of this app`));
    t.is(
      (await h().db('purchase_events').where({ app_id: a.app_id, transaction_id: stranger })).length,
      0,
      'nothing recorded for it, no error event',
    );

    t.like(await h().db('conversions').where({ app_id: a.app_id, conversion_key: sandboxToken }).first(), {
      status: 'refunded',
      environment: 'SANDBOX',
    });
    t.like(await h().db('conversions').where({ app_id: a.app_id, conversion_key: productOrder }).first(), {
      status: 'refunded',
      kind: 'one_time',
    });
    // Only the one-time purchase (production) moved money: reserved, then released. The sandbox period never did.
    t.deepEqual(await ledgerOf(h(), a), [
      ['topup', 1_000_000_000, 0],
      ['reserve', 0, 1_650_000],
      ['reversal', 0, -1_650_000],
    ]);

    // The cancelled order reported later (products.get purchaseState 1) is the same refund event, not a second one.
    world().google.products.set(`coins/${productToken}`, { ...bought, purchaseState: 1 });
    const reported = await reportPurchase(h(), a, body);
    t.like(reported.body, { event_type: 'REFUND', duplicate: true });
    t.is((await refundsOf(a, productOrder)).length, 1);
  },
);

test.serial("the client pages through Google's answer with its token (type=1, the window in ms)", async (t) => {
  const a = await androidAccount();
  const secret = await loadCredential(h().db, new SecretBox(h().config.SVC_MASTER_KEY!), a.app_id, 'android');
  const google = googlePlayClientFor(h().config, secret!);
  const orders = Array.from({ length: 5 }, () => newOrderId());
  for (const o of orders) voidOrder(a, `tok-${o}`, o);
  const before = world().google.calls.length;
  const listed = await google.voidedPurchasesIn(a.packageName, { startMs: Date.now() - 3_600_000, endMs: Date.now() }, { pageSize: 2 });
  t.deepEqual(
    listed.map((v) => v.orderId),
    orders,
  );
  const calls = world()
    .google.calls.slice(before)
    .filter((c) => c.path.endsWith('/purchases/voidedpurchases'));
  t.deepEqual(
    calls.map((c) => new URLSearchParams(c.query).get('token') !== null),
    [false, true, true],
  );
  t.true(calls.every((c) => new URLSearchParams(c.query).get('type') === '1'));
  // Nothing we recorded: the poll keeps all five as ignored.
  t.like(await pollNow(a), { listed: 5, refunded: 0, ignored: 5 });
});

test.serial('the worker start resumes the poll of an app already switched; starting it again is idempotent', async (t) => {
  const a = await storeAccount(h());
  await h().db('apps').where('id', a.app_id).update({ android_validation_provider: 'google_play' });
  await resumeVoidedPolls(h().db, h().temporal, h().taskQueue, h().logger);
  const handle = h().temporal.workflow.getHandle(playVoidedSyncWorkflowId(a.app_id));
  const first = await handle.describe();
  t.is(first.status.name, 'RUNNING');
  await resumeVoidedPolls(h().db, h().temporal, h().taskQueue, h().logger);
  t.is((await handle.describe()).runId, first.runId);
  // Its credential is missing: the poll says so and keeps running; switched back, the poll ends.
  t.like(await pollNow(a), { active: true, listed: 0 });
  t.regex((await h().db('play_voided_cursors').where('app_id', a.app_id).first()).last_error, /service account is missing/);
  await h().db('apps').where('id', a.app_id).update({ android_validation_provider: null });
  t.like(await pollNow(a), { active: false });
  t.like(await handle.result(), { active: false });
});

// The statement that reads a credential's sealed value (db/store-credentials.ts loadCredential).
const CREDENTIAL_READ = '"ciphertext"';

test.serial(
  'a dropped database connection while reading the service account is an outage: the purchase is retried and recorded once',
  async (t) => {
    const a = await androidAccount();
    const token = `sub-${randomUUID()}`;
    const orderId = newOrderId();
    setSubscription(token, orderId);
    const cutsBefore = proxy!.cuts();
    proxy!.cutNext(CREDENTIAL_READ);
    const bought = await reportPurchase(h(), a, {
      platform: 'android',
      purchase_token: token,
      app_user_id: 'cy',
      referral_code: a.creator_code,
    });
    t.is(proxy!.cuts(), cutsBefore + 1, 'the credential read lost its connection once');
    t.is(bought.status, 200, bought.text);
    t.like(bought.body, { validated: 'google_play', event_type: 'INITIAL_PURCHASE', duplicate: false, recorded: true });
    t.is((await h().db('purchase_events').where({ app_id: a.app_id, transaction_id: orderId })).length, 1);
    t.deepEqual(
      (await commissionsOf(a)).map((c) => [c.transaction_id, c.kind, c.status]),
      [[orderId, 'earn', 'reserved']],
    );
    t.deepEqual(await ledgerOf(h(), a), [
      ['topup', 1_000_000_000, 0],
      ['reserve', 0, 3_300_000],
    ]);
    t.deepEqual(
      (await h().db('store_purchase_proofs').where('app_id', a.app_id).select('status')).map((p) => p.status),
      ['verified'],
    );

    // The poll: the same fault is retried, the void applied once, and the poll's status never reads "missing".
    voidOrder(a, token, orderId);
    proxy!.cutNext(CREDENTIAL_READ);
    t.like(await pollNow(a), { active: true, listed: 1, refunded: 1, error: null });
    t.is(proxy!.cuts(), cutsBefore + 2);
    t.like(await h().db('play_voided_cursors').where('app_id', a.app_id).first(), { last_error: null });
    t.is((await refundsOf(a, orderId)).length, 1);
    t.deepEqual(await ledgerOf(h(), a), [
      ['topup', 1_000_000_000, 0],
      ['reserve', 0, 3_300_000],
      ['reversal', 0, -3_300_000],
    ]);
  },
);

test.serial('a service account that cannot be decrypted is refused for good, saying to upload it again', async (t) => {
  const a = await androidAccount();
  const token = `sub-${randomUUID()}`;
  setSubscription(token, newOrderId());
  await h()
    .db('store_credentials')
    .where({ app_id: a.app_id, platform: 'android' })
    .update({ auth_tag: Buffer.alloc(16) });
  const refused = await reportPurchase(h(), a, {
    platform: 'android',
    purchase_token: token,
    app_user_id: 'di',
    referral_code: a.creator_code,
  });
  t.is(refused.status, 400, refused.text);
  t.regex(refused.body.detail, /cannot be decrypted: upload it again/);
  t.is((await h().db('purchase_events').where('app_id', a.app_id)).length, 0);
  t.like(await pollNow(a), {
    active: true,
    listed: 0,
    error: 'The stored Google Play service account cannot be decrypted: upload it again through the credential-setup link.',
  });
  t.regex((await h().db('play_voided_cursors').where('app_id', a.app_id).first()).last_error, /cannot be decrypted: upload it again/);
});
