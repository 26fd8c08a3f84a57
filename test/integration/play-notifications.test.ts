// Google Play real-time developer notifications (issue 31, the Google half): Pub/Sub push messages to
// /api/webhooks/google-play/{app_id}, signed by a stub issuer (a throw-away RSA key whose certificate the stub serves
// at GOOGLE_OIDC_CERTS_URL as Google's PEM map), normalised by the play-notification workflow against the Google stub
// (subscriptionsv2, voidedpurchases). A renewal earns once and renewals missed meanwhile are recorded from the order
// sequence; a voided purchase refunds at once and the poll then finds the same event; a token of another service
// account, for another audience or signed by another key is refused with nothing kept; a redelivered messageId is
// counted once; an app report after the notification is a duplicate; an unbound initial purchase waits for the
// report, then is organic, and a report after that still attributes it; test purchases move no money. Serial: the Google stub expects one
// service account at a time.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { accountToken } from '@svc/sdk';
import { playNotificationWorkflowId, type PlayNotificationOutcome } from '../../workflows/store-notification-messages.js';
import { playVoidedSyncWorkflowId, pollVoidedNowUpdate, type PlayVoidedSyncSummary } from '../../workflows/play-voided-sync-messages.js';
import { request } from '../helpers/http.js';
import { RateLimitClock } from '../helpers/rate-limit-clock.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';
import {
  agentCall,
  ledgerOf,
  newOrderId,
  reportPurchase,
  setPlaySubscription,
  storeAccount,
  type StoreAccount,
  switchToStoreDirect,
  useStoreWorld,
} from '../helpers/store-direct.js';
import { startOidcStub, type OidcStub, type PushClaims } from '../stubs/google-oidc.js';

const PUSH_ACCOUNT = 'rtdn-push@proj.iam.gserviceaccount.com';
const REPORT_WAIT_MS = 2_500;

const clock = new RateLimitClock();
const { h } = useSeededHarness(test, { rateLimitClock: clock.now });
const world = useStoreWorld(test, h);
let oidc: OidcStub;
test.before(async () => {
  await world.ready();
  oidc = await startOidcStub();
  Object.assign(h().config, { GOOGLE_OIDC_CERTS_URL: oidc.certsUrl, PLAY_RTDN_REPORT_WAIT_MS: REPORT_WAIT_MS });
});
test.after.always(async () => {
  await oidc?.close();
});

async function androidAccount(): Promise<StoreAccount> {
  const a = await storeAccount(h(), { walletUsd: 1000 });
  await switchToStoreDirect(h(), world(), a, 'android', { pubsub_service_account: PUSH_ACCOUNT });
  return a;
}

const endpoint = (a: StoreAccount) => `/api/webhooks/google-play/${a.app_id}`;
const claimsFor = (a: StoreAccount, over: Partial<PushClaims> = {}): PushClaims => ({
  aud: `${h().baseUrl}${endpoint(a)}`,
  email: PUSH_ACCOUNT,
  ...over,
});

type Notification = Record<string, unknown>;

/** Pub/Sub's push of one developer notification, with the OIDC token it signs (or the one given). */
async function push(a: StoreAccount, notification: Notification, opts: { messageId?: string; token?: string | null } = {}) {
  const messageId = opts.messageId ?? String(Math.floor(Math.random() * 1e15));
  const data = Buffer.from(
    JSON.stringify({ version: '1.0', packageName: a.packageName, eventTimeMillis: String(Date.now()), ...notification }),
  ).toString('base64');
  const token = opts.token === undefined ? oidc.sign(claimsFor(a)) : opts.token;
  const res = await request(h().baseUrl, 'POST', endpoint(a), {
    body: {
      message: { data, messageId, message_id: messageId, publishTime: new Date().toISOString() },
      subscription: 'projects/proj/subscriptions/svc-rtdn',
    },
    headers: token === null ? {} : { authorization: `Bearer ${token}` },
  });
  return { res, messageId };
}

const outcomeOf = (a: StoreAccount, messageId: string): Promise<PlayNotificationOutcome> =>
  h().temporal.workflow.getHandle(playNotificationWorkflowId(a.app_id, messageId)).result();

const subscriptionNotification = (token: string, notificationType: number) => ({
  subscriptionNotification: { version: '1.0', notificationType, purchaseToken: token, subscriptionId: 'pro_monthly' },
});

/** Google's subscriptionsv2 answer for the token (its start time kept from the first answer, as Google's is). */
const setSubscription = (token: string, orderId: string, opts: { test?: boolean; account?: string } = {}) =>
  setPlaySubscription(world(), token, orderId, { ...opts, startDaysAgo: 70 });

const earnsOf = (a: StoreAccount) =>
  h()
    .db('commissions as c')
    .join('purchase_events as p', 'p.id', 'c.purchase_event_id')
    .where({ 'c.app_id': a.app_id })
    .orderBy('c.created_at')
    .select('p.transaction_id', 'p.event_type', 'c.kind', 'c.status', 'c.environment', 'c.commission_micros');
const intakeOf = (a: StoreAccount) => h().db('raw_intake').where({ app_id: a.app_id, source: 'play_rtdn' }).orderBy('id');

const RESERVE = ['reserve', 0, 3_300_000];

test.serial(
  'a notified renewal earns once; renewals missed during an outage are ' +
    'recorded from the order sequence; a redelivered messageId counts once',
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

    // The notifications of ..0 and ..1 were lost while we were away; ..2's arrives.
    setSubscription(token, `${orderId}..2`);
    const { res, messageId } = await push(a, subscriptionNotification(token, 2));
    t.is(res.status, 200, res.text);
    t.deepEqual(res.body, { received: true, message_id: messageId, duplicate: false });
    const outcome = await outcomeOf(a, messageId);
    t.like(outcome, { kind: 'subscription', refund: null, reportedMeanwhile: false });
    t.deepEqual(
      outcome.results.map((r) => r.error),
      [null, null, null],
    );
    const earns = [
      [orderId, 'INITIAL_PURCHASE'],
      [`${orderId}..0`, 'RENEWAL'],
      [`${orderId}..1`, 'RENEWAL'],
      [`${orderId}..2`, 'RENEWAL'],
    ];
    t.deepEqual(
      (await earnsOf(a)).map((c) => [c.transaction_id, c.event_type, c.kind, c.status, Number(c.commission_micros)]),
      earns.map((e) => [...e, 'earn', 'reserved', 3_000_000]),
    );
    t.like(await h().db('conversions').where({ app_id: a.app_id, conversion_key: token }).first(), { status: 'active', billing_cycles: 4 });
    t.like((await intakeOf(a))[0], { external_id: messageId });
    t.truthy((await intakeOf(a))[0].normalised_at);
    const status = await agentCall(h(), a, 'GET', `/apps/${a.app_id}/validation-status`);
    t.is(status.status, 200, status.text);
    t.like(status.body.platforms.android.notifications, { wired: true });
    t.truthy(status.body.platforms.android.notifications.last_received_at, 'the test notification shows the Android path wired');

    // Pub/Sub delivers the same message again: kept once, nothing started, nothing counted.
    const again = await push(a, subscriptionNotification(token, 2), { messageId });
    t.is(again.res.status, 200);
    t.like(again.res.body, { received: true, duplicate: true });
    // Google notifies the same renewal under a new messageId; and the app reports it: the same events.
    const twice = await push(a, subscriptionNotification(token, 2));
    t.deepEqual((await outcomeOf(a, twice.messageId)).results, []);
    const reported = await reportPurchase(h(), a, { platform: 'android', purchase_token: token, app_user_id: 'ana' });
    t.like(reported.body, { event_type: 'RENEWAL', duplicate: true });
    t.is((await earnsOf(a)).length, 4);
    t.deepEqual(await ledgerOf(h(), a), [['topup', 1_000_000_000, 0], RESERVE, RESERVE, RESERVE, RESERVE]);
    t.is((await intakeOf(a)).length, 2);

    // A cancellation (auto-renew off) is a lifecycle event: earned commission stays.
    const cancelled = await push(a, subscriptionNotification(token, 3));
    t.deepEqual(
      (await outcomeOf(a, cancelled.messageId)).results.map((r) => r.error),
      [null],
    );
    t.like(await h().db('conversions').where({ app_id: a.app_id, conversion_key: token }).first(), { status: 'cancelled' });
    t.is((await earnsOf(a)).length, 4);
  },
);

test.serial('a voided purchase refunds at once: exactly its period, and the poll then finds the same event', async (t) => {
  const a = await androidAccount();
  const token = `sub-${randomUUID()}`;
  const orderId = newOrderId();
  setSubscription(token, orderId);
  t.is(
    (await reportPurchase(h(), a, { platform: 'android', purchase_token: token, app_user_id: 'bo', referral_code: a.creator_code })).status,
    200,
  );
  setSubscription(token, `${orderId}..0`);
  t.is((await push(a, subscriptionNotification(token, 2))).res.status, 200);
  await t.notThrowsAsync(async () => {
    while ((await earnsOf(a)).length < 2) await new Promise((r) => setTimeout(r, 100));
  });

  world().google.voided.push({
    packageName: a.packageName,
    purchaseToken: token,
    orderId: `${orderId}..0`,
    voidedTimeMillis: String(Date.now() - 2_000),
    purchaseTimeMillis: String(Date.now() - 86_400_000),
    voidedSource: 0,
    voidedReason: 1,
    subscription: true,
  });
  const voided = await push(a, {
    voidedPurchaseNotification: { purchaseToken: token, orderId: `${orderId}..0`, productType: 1, refundType: 1 },
  });
  t.is(voided.res.status, 200, voided.res.text);
  t.like(await outcomeOf(a, voided.messageId), { kind: 'voided', refund: 'refund' });
  const rows = (await earnsOf(a)).map((c) => [c.transaction_id, c.kind, c.status]);
  t.deepEqual(rows, [
    [orderId, 'earn', 'reserved'],
    [`${orderId}..0`, 'earn', 'reversed'],
    [`${orderId}..0`, 'reversal', 'reversed'],
  ]);
  t.deepEqual(await ledgerOf(h(), a), [['topup', 1_000_000_000, 0], RESERVE, RESERVE, ['reversal', 0, -3_300_000]]);
  t.like(
    await h()
      .db('play_voided_purchases')
      .where({ app_id: a.app_id, order_id: `${orderId}..0` })
      .first(),
    { outcome: 'refund', kind: 'subscription', seen: 1 },
  );

  // The safety-net poll lists the same void: the same event, no second reversal.
  const polled: PlayVoidedSyncSummary = await h()
    .temporal.workflow.getHandle(playVoidedSyncWorkflowId(a.app_id))
    .executeUpdate(pollVoidedNowUpdate);
  t.like(polled, { refunded: 1, error: null });
  t.is(
    (
      await h()
        .db('purchase_events')
        .where({ app_id: a.app_id, transaction_id: `${orderId}..0`, event_type: 'REFUND' })
    ).length,
    1,
  );
  t.is((await earnsOf(a)).length, 3);
});

test.serial("pushes that do not authenticate as the app's push account are refused and nothing is kept", async (t) => {
  const a = await androidAccount();
  const token = `sub-${randomUUID()}`;
  setSubscription(token, newOrderId());
  const note = subscriptionNotification(token, 4);
  const other = await push(a, note, { token: oidc.sign(claimsFor(a, { email: 'someone-else@proj.iam.gserviceaccount.com' })) });
  t.is(other.res.status, 403);
  t.regex(other.res.body.detail, /another service account/);
  t.is((await push(a, note, { token: oidc.sign(claimsFor(a, { email_verified: false })) })).res.status, 403);
  const audience = await push(a, note, { token: oidc.sign(claimsFor(a, { aud: `${h().baseUrl}/api/webhooks/google-play/app_other` })) });
  t.is(audience.res.status, 401);
  t.regex(audience.res.body.detail, /another audience/);
  t.is((await push(a, note, { token: oidc.stranger(claimsFor(a)) })).res.status, 401);
  t.is((await push(a, note, { token: oidc.sign(claimsFor(a, { iss: 'https://evil.example.com' })) })).res.status, 401);
  t.is((await push(a, note, { token: oidc.sign(claimsFor(a, { expiresInS: -600 })) })).res.status, 401);
  const bare = await push(a, note, { token: null });
  t.is(bare.res.status, 401);
  t.notRegex(JSON.stringify(bare.res.body), /Bearer ey/);
  // Verified, but for another package; and a body that is no notification.
  t.is((await push(a, { ...note, packageName: 'com.example.other' })).res.status, 422);
  const garbled = await request(h().baseUrl, 'POST', endpoint(a), {
    body: { message: { data: 'not base64 json', messageId: '1' } },
    headers: { authorization: `Bearer ${oidc.sign(claimsFor(a))}` },
  });
  t.is(garbled.status, 422);
  t.is(
    (
      await request(h().baseUrl, 'POST', '/api/webhooks/google-play/app_missing', {
        body: {},
        headers: { authorization: `Bearer ${oidc.sign(claimsFor(a))}` },
      })
    ).status,
    404,
  );
  t.is((await intakeOf(a)).length, 0);
  t.is(
    await h()
      .db('conversions')
      .where({ app_id: a.app_id })
      .count({ n: '*' })
      .first()
      .then((r) => Number(r!.n)),
    0,
  );

  // An app whose upload named no push account takes no notifications.
  const b = await storeAccount(h(), { walletUsd: 1000 });
  await switchToStoreDirect(h(), world(), b, 'android');
  const unset = await push(b, note, { token: oidc.sign(claimsFor(b)) });
  t.is(unset.res.status, 403);
  t.regex(unset.res.body.detail, /pubsub_service_account/);
  // The upload refuses a push account that is no email, naming the field.
  const link = await request(h().baseUrl, 'POST', `/api/agent/apps/${b.app_id}/credential-setup-link`, {
    token: b.agentKey,
    body: { platform: 'android' },
  });
  const bad = await request(h().baseUrl, 'POST', (link.body.url as string).slice(h().baseUrl.length), {
    body: {
      platform: 'android',
      package_name: b.packageName,
      service_account_json: { type: 'service_account', client_email: 'x@y.iam.gserviceaccount.com', private_key: 'k' },
      pubsub_service_account: 'not an email',
    },
  });
  t.is(bad.status, 422);
  t.true(JSON.stringify(bad.body.detail).includes('pubsub_service_account'));
});

test.serial(
  "a notified initial purchase bound by obfuscatedExternalAccountId is applied at once; the app's report after it is a duplicate",
  async (t) => {
    const a = await androidAccount();
    const user = `u-${randomUUID()}`;
    const code = await request(h().baseUrl, 'POST', '/api/sdk/set-referral-code', {
      token: a.sdk_key,
      body: { code: a.creator_code, app_user_id: user },
    });
    t.is(code.status, 200, code.text);
    const token = `sub-${randomUUID()}`;
    const orderId = newOrderId();
    setSubscription(token, orderId, { account: accountToken(user) });
    const { res, messageId } = await push(a, subscriptionNotification(token, 4));
    t.is(res.status, 200, res.text);
    const outcome = await outcomeOf(a, messageId);
    t.like(outcome, { reportedMeanwhile: false });
    t.deepEqual(
      outcome.results.map((r) => r.error),
      [null],
    );
    t.like(await h().db('conversions').where({ app_id: a.app_id, conversion_key: token }).first(), {
      app_user_id: user,
      creator_id: a.creator_id,
      status: 'active',
    });
    t.deepEqual(
      (await earnsOf(a)).map((c) => [c.transaction_id, c.kind]),
      [[orderId, 'earn']],
    );

    const reported = await reportPurchase(h(), a, { platform: 'android', purchase_token: token, app_user_id: user });
    t.is(reported.status, 200, reported.text);
    t.like(reported.body, { event_type: 'INITIAL_PURCHASE', duplicate: true, result: { event_id: outcome.results[0]!.eventId } });
    t.is((await earnsOf(a)).length, 1);
  },
);

test.serial(
  "an unbound initial purchase waits for the app's report (which brings the code); without one it is applied as organic",
  async (t) => {
    const a = await androidAccount();
    // Reported during the wait: the report's code attributes it, the notification's event is the same one.
    const reportedToken = `sub-${randomUUID()}`;
    setSubscription(reportedToken, newOrderId(), { account: 'nobody-we-know' });
    const first = await push(a, subscriptionNotification(reportedToken, 4));
    t.is(first.res.status, 200);
    const report = await reportPurchase(h(), a, {
      platform: 'android',
      purchase_token: reportedToken,
      app_user_id: 'cy',
      referral_code: a.creator_code,
    });
    t.like(report.body, { event_type: 'INITIAL_PURCHASE', duplicate: false });
    const waited = await outcomeOf(a, first.messageId);
    t.like(waited, { reportedMeanwhile: true });
    t.like(await h().db('conversions').where({ app_id: a.app_id, conversion_key: reportedToken }).first(), {
      app_user_id: 'cy',
      creator_id: a.creator_id,
    });

    // Not reported in time: after the wait, organic (kept, no creator, no commission). Bought an hour ago.
    const organicToken = `sub-${randomUUID()}`;
    world().google.subscriptions.set(organicToken, { startTime: new Date(Date.now() - 3_600_000).toISOString() });
    setSubscription(organicToken, newOrderId());
    const started = Date.now();
    const second = await push(a, subscriptionNotification(organicToken, 4));
    t.like(await outcomeOf(a, second.messageId), { reportedMeanwhile: false });
    t.true(Date.now() - started >= REPORT_WAIT_MS);
    t.like(await h().db('conversions').where({ app_id: a.app_id, conversion_key: organicToken }).first(), { creator_id: null });
    t.is((await earnsOf(a)).length, 1);

    // The app's report comes after all, within the attribution window: its code attributes the organic conversion,
    // whose period earns then, once.
    const late = await reportPurchase(h(), a, {
      platform: 'android',
      purchase_token: organicToken,
      app_user_id: 'dee',
      referral_code: a.creator_code,
    });
    t.like(late.body, { event_type: 'INITIAL_PURCHASE', duplicate: true, result: { processed: true } });
    t.like(await h().db('conversions').where({ app_id: a.app_id, conversion_key: organicToken }).first(), {
      attributed: true,
      app_user_id: 'dee',
      creator_id: a.creator_id,
    });
    const earned = [
      ['INITIAL_PURCHASE', 'earn', 'reserved', 3_000_000],
      ['INITIAL_PURCHASE', 'earn', 'reserved', 3_000_000],
    ];
    t.deepEqual(
      (await earnsOf(a)).map((c) => [c.event_type, c.kind, c.status, Number(c.commission_micros)]),
      earned,
    );
    await reportPurchase(h(), a, { platform: 'android', purchase_token: organicToken, app_user_id: 'dee', referral_code: a.creator_code });
    t.is((await earnsOf(a)).length, 2);
    t.deepEqual(await ledgerOf(h(), a), [['topup', 1_000_000_000, 0], RESERVE, RESERVE]);
  },
);

test.serial('test notifications and test purchases: the path is wired, no money moves', async (t) => {
  const a = await androidAccount();
  const ping = await push(a, { testNotification: { version: '1.0' } });
  t.is(ping.res.status, 200);
  t.like(await outcomeOf(a, ping.messageId), { kind: 'test', results: [] });
  t.truthy((await intakeOf(a))[0].normalised_at);

  const user = `u-${randomUUID()}`;
  t.is(
    (
      await request(h().baseUrl, 'POST', '/api/sdk/set-referral-code', {
        token: a.sdk_key,
        body: { code: a.creator_code, app_user_id: user },
      })
    ).status,
    200,
  );
  const token = `sub-${randomUUID()}`;
  const orderId = newOrderId();
  setSubscription(token, orderId, { test: true, account: user });
  await outcomeOf(a, (await push(a, subscriptionNotification(token, 4))).messageId);
  setSubscription(token, `${orderId}..0`, { test: true, account: user });
  await outcomeOf(a, (await push(a, subscriptionNotification(token, 2))).messageId);
  t.deepEqual(
    (await earnsOf(a)).map((c) => [c.transaction_id, c.environment, c.status]),
    [
      [orderId, 'SANDBOX', 'simulated'],
      [`${orderId}..0`, 'SANDBOX', 'simulated'],
    ],
  );
  t.deepEqual(await ledgerOf(h(), a), [['topup', 1_000_000_000, 0]]);
});

test.serial('Google away while a notification is normalised: kept and answered 200, then recorded once Google answers again', async (t) => {
  const a = await androidAccount();
  const user = `u-${randomUUID()}`;
  t.is(
    (
      await request(h().baseUrl, 'POST', '/api/sdk/set-referral-code', {
        token: a.sdk_key,
        body: { code: a.creator_code, app_user_id: user },
      })
    ).status,
    200,
  );
  const token = `sub-${randomUUID()}`;
  const orderId = newOrderId();
  setSubscription(token, orderId, { account: user });
  world().google.failWith = 503;
  try {
    const { res, messageId } = await push(a, subscriptionNotification(token, 4));
    t.is(res.status, 200, 'the push is acknowledged: the kept row is the work');
    await new Promise((r) => setTimeout(r, 1_500));
    t.is((await intakeOf(a))[0].normalised_at, null);
    t.is((await earnsOf(a)).length, 0);
    world().google.failWith = null;
    t.deepEqual(
      (await outcomeOf(a, messageId)).results.map((r) => r.error),
      [null],
    );
  } finally {
    world().google.failWith = null;
  }
  t.deepEqual(
    (await earnsOf(a)).map((c) => [c.transaction_id, c.kind]),
    [[orderId, 'earn']],
  );
  t.truthy((await intakeOf(a))[0].normalised_at);
});

test.serial(
  'the endpoint is rate limited per app: past 300 pushes in 10 s, 429 with Retry-After; another app is not held back',
  async (t) => {
    const flooded = `app_${randomUUID().replace(/-/g, '')}`;
    const post = (appId: string) => request(h().baseUrl, 'POST', `/api/webhooks/google-play/${appId}`, { body: {} });
    const statuses: number[] = [];
    const limited = await clock.held(async () => {
      for (let i = 0; i < 30; i += 1)
        statuses.push(...(await Promise.all(Array.from({ length: 10 }, () => post(flooded)))).map((r) => r.status));
      return post(flooded);
    });
    t.deepEqual([...new Set(statuses)], [404], 'the first 300 reach the handler (no such app)');
    t.is(limited.status, 429);
    t.truthy(limited.headers.get('retry-after'));
    t.is((await post(`app_${randomUUID().replace(/-/g, '')}`)).status, 404);
  },
);
