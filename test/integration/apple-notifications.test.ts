// App Store Server Notifications V2 (POST /api/webhooks/apple/{app_id}, docs/store-direct.md "Server notifications"),
// signed by a throw-away Apple chain exactly as the App Store signs them: verified, kept once per notificationUUID,
// normalised by the store-notification workflow into the SAME conversions as /sdk/purchase. Renewals known only by
// notification earn once; the app's own report of a notified transaction is a duplicate; a refund reverses and
// REFUND_REVERSED restores exactly that period; family-shared transactions never earn; tampered, foreign-bundle and
// wrong-app notifications record nothing; a first purchase bound by appAccountToken keeps its creator, an unbound
// one waits for the app's report; the hourly history catch-up fills a gap (with a 429 on the way).
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { accountToken } from '@svc/sdk';
import { notificationHistoryWorkflowId, readNotificationHistoryNowUpdate } from '../../workflows/notification-history-messages.js';
import { storeNotificationWorkflowId, type StoreNotificationOutcome } from '../../workflows/store-notification-messages.js';
import {
  notificationPayload,
  renewalInfoPayload,
  signTransaction,
  transactionPayload,
  type TransactionFields,
} from '../helpers/apple-signing.js';
import { request } from '../helpers/http.js';
import { RateLimitClock } from '../helpers/rate-limit-clock.js';
import { useSeededHarness } from '../helpers/seeded-harness.js';
import { agentCall, reportPurchase, storeAccount, switchToStoreDirect, useStoreWorld, type StoreAccount } from '../helpers/store-direct.js';

// TRUST_PROXY: each user's code entry comes from its own address (manual entries are deduplicated per address).
const clock = new RateLimitClock();
const { h } = useSeededHarness(test, { env: { TRUST_PROXY: 'true' }, rateLimitClock: clock.now });
const world = useStoreWorld(test, h);
let a: StoreAccount;
let check: any;
const APPLE_ID = 1234567890;
const DAY = 86_400_000;

const sign = (payload: Record<string, unknown>) => signTransaction(world().chain, payload);
const tx = (fields: Omit<TransactionFields, 'bundleId'> = {}, app = a) => transactionPayload({ bundleId: app.bundleId, ...fields });
const notification = (
  type: string,
  transaction: Record<string, unknown> | undefined,
  extra: Partial<Parameters<typeof notificationPayload>[0]> = {},
  app = a,
) =>
  notificationPayload({
    notificationType: type,
    bundleId: app.bundleId,
    appAppleId: APPLE_ID,
    ...(transaction ? { signedTransactionInfo: sign(transaction) } : {}),
    ...extra,
  });
const post = (signedPayload: string, app = a) =>
  request(h().baseUrl, 'POST', `/api/webhooks/apple/${app.app_id}`, { body: { signedPayload } });

/** Posts the notification and waits for its workflow's outcome. */
async function notify(
  payload: Record<string, unknown>,
  app = a,
): Promise<{ res: Awaited<ReturnType<typeof post>>; outcome: StoreNotificationOutcome }> {
  const res = await post(sign(payload), app);
  if (res.status !== 200) throw new Error(`notification answered ${res.status} ${res.text}`);
  const handle = h().temporal.workflow.getHandle(
    storeNotificationWorkflowId({ appId: app.app_id, source: 'app_store_notification', externalId: payload.notificationUUID as string }),
  );
  return { res, outcome: (await handle.result()) as StoreNotificationOutcome };
}

let lastIp = 10;
/** The user enters the creator's code in the app (SDK set-referral-code), from an address of their own. */
const enterCode = (appUserId: string) =>
  request(h().baseUrl, 'POST', '/api/sdk/set-referral-code', {
    token: a.sdk_key,
    body: { code: a.creator_code, app_user_id: appUserId },
    headers: { 'x-forwarded-for': `203.0.113.${lastIp++}` },
  });

const earnRows = (conversionKey: string) =>
  h()
    .db('commissions as c')
    .join('conversions as v', 'v.id', 'c.conversion_id')
    .where({ 'v.app_id': a.app_id, 'v.conversion_key': conversionKey })
    .orderBy('c.created_at')
    .select('c.kind', 'c.commission_micros', 'c.environment', 'c.purchase_event_id');
const rawRows = (app = a) => h().db('raw_intake').where({ app_id: app.app_id });

test.before(async () => {
  await world.ready();
  h().config.STORE_NOTIFICATION_BINDING_WAIT_MS = 4000;
  a = await storeAccount(h());
  // Apple sends the TEST notification the green-check asks for, signed by its chain, to the app's endpoint.
  world().apple.onTestNotification = async () => {
    await post(sign(notification('TEST', undefined)));
  };
  ({ check } = await switchToStoreDirect(h(), world(), a, 'ios'));
  world().apple.onTestNotification = null;
});

test.serial('the green-check reports the TEST notification it asked for; validation-status shows iOS notifications wired', async (t) => {
  t.like(check, { status: 'ok', test_notification: { arrived: true } });
  t.regex(check.reason, /test notification was requested; it arrived at .*\/api\/webhooks\/apple\//);
  const status = await agentCall(h(), a, 'GET', `/apps/${a.app_id}/validation-status`);
  t.is(status.status, 200, status.text);
  t.like(status.body.platforms.ios.notifications, { wired: true, url: `${h().config.BASE_URL}/api/webhooks/apple/${a.app_id}` });
  t.truthy(status.body.platforms.ios.notifications.last_received_at);
  t.is(status.body.platforms.ios.app_apple_id_missing, false);
  t.like(status.body.platforms.android.notifications, { wired: false, last_received_at: null });
  const integration = await agentCall(h(), a, 'GET', `/apps/${a.app_id}/integration-status`);
  t.is(integration.status, 200, integration.text);
  const configured = integration.body.checklist.find((s: any) => s.step === 'validation_configured');
  t.regex(configured.evidence, /ios: store-direct app_store, credentials green-checked, store notifications wired \(last received /);
});

test.serial("renewals known only by notification earn once each; a redelivery and the app's own report are duplicates", async (t) => {
  const start = Date.now() - 70 * DAY;
  const first = tx({ purchaseDate: start });
  const original = first.transactionId as string;
  const reported = await reportPurchase(h(), a, {
    platform: 'ios',
    signed_transaction: sign(first),
    referral_code: a.creator_code,
    app_user_id: 'renewing-user',
  });
  t.like(reported.body, { event_type: 'INITIAL_PURCHASE', duplicate: false, result: { processed: true } });
  const renewals = [1, 2].map((n) => tx({ originalTransactionId: original, purchaseDate: start + n * 30 * DAY }));
  for (const r of renewals) {
    const { outcome } = await notify(notification('DID_RENEW', r));
    t.like(outcome, { kind: 'events', events: [{ type: 'RENEWAL', error: null, duplicate: false }] });
  }
  const again = notification('DID_RENEW', renewals[0]);
  await notify(again);
  const redelivered = await post(sign(again));
  t.like(redelivered.body, { received: true, duplicate: true, notification_uuid: again.notificationUUID });
  const earns = (await earnRows(original)).filter((c) => c.kind === 'earn');
  t.is(earns.length, 3, 'the initial purchase and two renewals, each once');
  t.true(earns.every((c) => Number(c.commission_micros) > 0 && c.environment === 'PRODUCTION'));
  const conversion = await h().db('conversions').where({ app_id: a.app_id, conversion_key: original }).first();
  t.like(conversion, { attributed: true, referral_code: a.creator_code, billing_cycles: 3, app_user_id: 'renewing-user' });

  const appReport = await reportPurchase(h(), a, {
    platform: 'ios',
    signed_transaction: sign({ ...renewals[1]!, signedDate: Date.now() }),
    app_user_id: 'renewing-user',
  });
  t.like(appReport.body, { event_type: 'RENEWAL', duplicate: true });
  t.is((await earnRows(original)).filter((c) => c.kind === 'earn').length, 3);

  // REFUND of the second renewal reverses exactly that period; REFUND_REVERSED restores it; a replay of either changes nothing.
  const refunded = { ...renewals[1]!, revocationDate: Date.now() - 1000, revocationReason: 0 };
  const refund = await notify(notification('REFUND', refunded));
  t.like(refund.outcome.events.at(-1), { type: 'REFUND', error: null });
  const afterRefund = await earnRows(original);
  const reversal = afterRefund.filter((c) => c.kind !== 'earn');
  t.is(reversal.length, 1);
  const refundedEarn = afterRefund.find((c) => c.kind === 'earn' && c.purchase_event_id === refund.outcome.events[0]!.eventId);
  t.is(Number(reversal[0]!.commission_micros), -Number(refundedEarn!.commission_micros));
  const restoreNote = notification('REFUND_REVERSED', renewals[1]);
  const restore = await notify(restoreNote);
  t.like(restore.outcome.events[0], { type: 'REFUND_REVERSED', error: null });
  await notify({ ...restoreNote, notificationUUID: randomUUID() });
  const final = await earnRows(original);
  t.is(final.filter((c) => c.kind === 'earn').length, 4, 'the refunded period earned again once');
  t.is(final.length, 5);
});

test.serial('family-shared transactions are recorded and never earn, notified or reported', async (t) => {
  const notified = tx({ inAppOwnershipType: 'FAMILY_SHARED', appAccountToken: accountToken('family-user') });
  t.like((await enterCode('family-user')).body, { success: true, already_attributed: false });
  const { outcome } = await notify(notification('SUBSCRIBED', notified, { subtype: 'INITIAL_BUY' }));
  t.like(outcome, { kind: 'events', waited: null, events: [{ type: 'INITIAL_PURCHASE' }] });
  const reportedTx = tx({ inAppOwnershipType: 'FAMILY_SHARED' });
  const report = await reportPurchase(h(), a, {
    platform: 'ios',
    signed_transaction: sign(reportedTx),
    referral_code: a.creator_code,
    app_user_id: 'family-user-2',
  });
  t.like(report.body, { recorded: true });
  for (const key of [notified.transactionId, reportedTx.transactionId] as string[]) {
    t.truthy(await h().db('purchase_events').where({ app_id: a.app_id, transaction_id: key, event_type: 'INITIAL_PURCHASE' }).first());
    t.deepEqual(await earnRows(key), []);
  }
});

test.serial('tampered, foreign-bundle, wrong-app-id and Xcode notifications answer 401 and record nothing', async (t) => {
  const before = (await rawRows()).length;
  const good = sign(notification('DID_RENEW', tx()));
  const [head, body, sig] = good.split('.');
  const altered = JSON.parse(Buffer.from(body!, 'base64url').toString('utf8'));
  altered.notificationType = 'REFUND';
  const tampered = await post(`${head}.${Buffer.from(JSON.stringify(altered)).toString('base64url')}.${sig}`);
  t.is(tampered.status, 401);
  t.regex(tampered.body.detail, /Verification failed: the signature/);
  const foreign = await post(
    sign(
      notificationPayload({
        notificationType: 'DID_RENEW',
        bundleId: 'com.other.app',
        appAppleId: APPLE_ID,
        signedTransactionInfo: sign(transactionPayload({ bundleId: 'com.other.app' })),
      }),
    ),
  );
  t.is(foreign.status, 401);
  t.regex(foreign.body.detail, /another app/);
  const wrongId = await post(sign(notification('DID_RENEW', tx(), { appAppleId: 999 })));
  t.is(wrongId.status, 401);
  const xcode = await post(sign({ ...notification('DID_RENEW', tx()), data: { bundleId: a.bundleId, environment: 'Xcode' } }));
  t.is(xcode.status, 401);
  const notJson = await request(h().baseUrl, 'POST', `/api/webhooks/apple/${a.app_id}`, { body: { payload: 'x' } });
  t.is(notJson.status, 422);
  t.is((await rawRows()).length, before, 'nothing recorded');
  const unknown = await request(h().baseUrl, 'POST', '/api/webhooks/apple/app_does_not_exist', { body: { signedPayload: good } });
  t.is(unknown.status, 404);
});

test.serial(
  'our side unconfigured answers 503 (Apple retries); a subscription-provider platform is acknowledged and ignored',
  async (t) => {
    const plain = await storeAccount(h());
    const notSwitched = await post(sign(notification('DID_RENEW', tx({}, plain), {}, plain)), plain);
    t.is(notSwitched.status, 503);
    t.regex(notSwitched.body.detail, /not switched to store-direct/);
    const roots = h().config.APPLE_ROOT_CERTS;
    h().config.APPLE_ROOT_CERTS = undefined;
    try {
      const noRoots = await post(sign(notification('DID_RENEW', tx())));
      t.is(noRoots.status, 503);
      t.regex(noRoots.body.detail, /APPLE_ROOT_CERTS/);
    } finally {
      h().config.APPLE_ROOT_CERTS = roots;
    }
    await h().db('apps').where('id', plain.app_id).update({ ios_validation_provider: 'subprovider' });
    const provider = await post(sign(notification('DID_RENEW', tx({}, plain), {}, plain)), plain);
    t.is(provider.status, 200);
    t.like(provider.body, { received: true, ignored: true });
    t.regex(provider.body.reason, /subscription provider/);
    t.is((await rawRows(plain)).length, 0);
  },
);

test.serial('a notified first purchase bound by appAccountToken keeps its creator, without waiting', async (t) => {
  const code = await enterCode('bound-user');
  t.like(code.body, { success: true, already_attributed: false });
  const first = tx({ appAccountToken: accountToken('bound-user') });
  const { outcome } = await notify(notification('SUBSCRIBED', first, { subtype: 'INITIAL_BUY' }));
  t.like(outcome, { kind: 'events', waited: null, events: [{ type: 'INITIAL_PURCHASE', error: null }] });
  const conversion = await h().db('conversions').where({ app_id: a.app_id, conversion_key: first.transactionId }).first();
  t.like(conversion, { app_user_id: 'bound-user', attributed: true, referral_code: a.creator_code });
  t.is((await earnRows(first.transactionId as string)).length, 1);
});

test.serial("an unbound first purchase waits for the app's report (its code wins), else is applied as organic", async (t) => {
  const first = tx();
  const note = notification('SUBSCRIBED', first, { subtype: 'INITIAL_BUY' });
  const pending = notify(note);
  await new Promise((r) => setTimeout(r, 1000));
  const report = await reportPurchase(h(), a, {
    platform: 'ios',
    signed_transaction: sign(first),
    referral_code: a.creator_code,
    app_user_id: 'late-reporter',
  });
  t.like(report.body, { duplicate: false, result: { processed: true } });
  const { outcome } = await pending;
  t.like(outcome, { waited: 'reported', events: [{ type: 'INITIAL_PURCHASE', duplicate: true }] });
  t.like(await h().db('conversions').where({ app_id: a.app_id, conversion_key: first.transactionId }).first(), {
    attributed: true,
    app_user_id: 'late-reporter',
  });

  const organic = tx();
  const alone = await notify(notification('SUBSCRIBED', organic, { subtype: 'INITIAL_BUY' }));
  t.like(alone.outcome, { waited: 'timed_out', events: [{ type: 'INITIAL_PURCHASE', error: 'no referral code (organic purchase)' }] });
  t.like(await h().db('conversions').where({ app_id: a.app_id, conversion_key: organic.transactionId }).first(), { attributed: false });
});

test.serial('state changes are keyed on the signed date: a late older one does not undo a newer one; sandbox moves no money', async (t) => {
  const first = tx();
  await reportPurchase(h(), a, {
    platform: 'ios',
    signed_transaction: sign(first),
    referral_code: a.creator_code,
    app_user_id: 'order-user',
  });
  const renewal = sign(renewalInfoPayload({ originalTransactionId: first.transactionId as string }));
  const now = Date.now();
  await notify(
    notification('DID_CHANGE_RENEWAL_STATUS', first, { subtype: 'AUTO_RENEW_ENABLED', signedDate: now, signedRenewalInfo: renewal }),
  );
  const late = await notify(
    notification('DID_CHANGE_RENEWAL_STATUS', first, {
      subtype: 'AUTO_RENEW_DISABLED',
      signedDate: now - 60_000,
      signedRenewalInfo: renewal,
    }),
  );
  t.like(late.outcome.events[0], { type: 'CANCELLATION', eventId: null, error: 'superseded by a later state change' });
  t.like(await h().db('conversions').where({ app_id: a.app_id, conversion_key: first.transactionId }).first(), { status: 'active' });
  await notify(notification('EXPIRED', first, { subtype: 'VOLUNTARY', signedDate: now + 1000 }));
  t.like(await h().db('conversions').where({ app_id: a.app_id, conversion_key: first.transactionId }).first(), { status: 'churned' });

  const sandbox = tx({ environment: 'Sandbox', appAccountToken: accountToken('bound-user') });
  const wallet = await h().db('wallet_ledger').where('org_id', a.org_id).count<{ count: string }[]>('* as count');
  await notify(notification('SUBSCRIBED', sandbox, { subtype: 'INITIAL_BUY', environment: 'Sandbox', appAppleId: undefined }));
  const rows = await earnRows(sandbox.transactionId as string);
  t.true(rows.every((r) => r.environment === 'SANDBOX'));
  t.deepEqual(await h().db('wallet_ledger').where('org_id', a.org_id).count<{ count: string }[]>('* as count'), wallet, 'no ledger entry');
});

test.serial(
  'the hourly catch-up reads the Notification History since the last notification (less an hour), past a 429, and fills the gap',
  async (t) => {
    const start = Date.now() - 40 * DAY;
    const first = tx({ purchaseDate: start });
    await reportPurchase(h(), a, {
      platform: 'ios',
      signed_transaction: sign(first),
      referral_code: a.creator_code,
      app_user_id: 'gap-user',
    });
    const missed = [1, 2, 3].map((n) =>
      notification('DID_RENEW', tx({ originalTransactionId: first.transactionId as string, purchaseDate: start + n * 10 * DAY })),
    );
    const seen = notification('DID_RENEW', tx({ originalTransactionId: first.transactionId as string, purchaseDate: start + 35 * DAY }));
    await notify(seen);
    const last = await h().db('store_notification_states').where({ app_id: a.app_id, source: 'app_store_notification' }).first();
    world().apple.history = {
      pages: [[sign(missed[0]!), sign(seen)], [sign(missed[1]!)], [sign(missed[2]!)]],
      rateLimitOnce: true,
      requests: [],
    };
    const handle = h().temporal.workflow.getHandle(notificationHistoryWorkflowId(a.app_id));
    const summary = await handle.executeUpdate(readNotificationHistoryNowUpdate);
    t.like(summary, { active: true, error: null, pages: 3, listed: 4, takenIn: 3 });
    const requests = world().apple.history.requests;
    t.deepEqual(
      requests.map((r) => [r.paginationToken, r.status]),
      [
        [null, 429],
        [null, 200],
        ['1', 200],
        ['2', 200],
      ],
    );
    const readFrom = Math.max(last.last_received_at.getTime(), last.history_synced_until?.getTime() ?? 0) - 3_600_000;
    t.true(Math.abs(requests[1]!.startDate! - readFrom) < 2000, `startDate ${requests[1]!.startDate} vs ${readFrom}`);
    for (const m of missed) {
      const outcome = (await h()
        .temporal.workflow.getHandle(
          storeNotificationWorkflowId({ appId: a.app_id, source: 'app_store_notification', externalId: m.notificationUUID as string }),
        )
        .result()) as StoreNotificationOutcome;
      t.like(outcome, { kind: 'events', events: [{ type: 'RENEWAL', error: null }] });
    }
    t.is(
      (await earnRows(first.transactionId as string)).filter((c) => c.kind === 'earn').length,
      5,
      'initial + the seen renewal + the three missed, each once',
    );
    const again = await handle.executeUpdate(readNotificationHistoryNowUpdate);
    t.like(again, { takenIn: 0, resumed: 0 });
    t.is((await earnRows(first.transactionId as string)).length, 5);

    // A notification kept while Temporal could not start its workflow (answered 200 all the same) is started by the
    // next read: here the row of a renewal that was taken in 10 minutes ago and never normalised.
    const stranded = notification(
      'DID_RENEW',
      tx({ originalTransactionId: first.transactionId as string, purchaseDate: start + 38 * DAY }),
    );
    const kept = await h().db('raw_intake').where({ app_id: a.app_id, external_id: seen.notificationUUID }).first();
    const strandedPayload = {
      ...kept.payload,
      notification: stranded,
      transaction: JSON.parse(Buffer.from((stranded.data as any).signedTransactionInfo.split('.')[1], 'base64url').toString('utf8')),
    };
    await h()
      .db('raw_intake')
      .insert({
        app_id: a.app_id,
        source: 'app_store_notification',
        external_id: stranded.notificationUUID,
        payload: strandedPayload,
        received_at: new Date(Date.now() - 10 * 60_000),
      });
    world().apple.history = { pages: [], rateLimitOnce: false, requests: [] };
    t.like(await handle.executeUpdate(readNotificationHistoryNowUpdate), { resumed: 1, error: null });
    const resumed = (await h()
      .temporal.workflow.getHandle(
        storeNotificationWorkflowId({ appId: a.app_id, source: 'app_store_notification', externalId: stranded.notificationUUID as string }),
      )
      .result()) as StoreNotificationOutcome;
    t.like(resumed, { kind: 'events', events: [{ type: 'RENEWAL', error: null }] });
    t.truthy((await h().db('raw_intake').where({ app_id: a.app_id, external_id: stranded.notificationUUID }).first()).normalised_at);
    t.is((await earnRows(first.transactionId as string)).filter((c) => c.kind === 'earn').length, 6);
  },
);

test("the SQL account token (index lookup) is the SDK's accountToken", async (t) => {
  for (const id of ['u1', 'user-ü1', 'ユーザー', 'a'.repeat(200)]) {
    const row = await h().db.raw('select app_account_token(?)::text as token', [id]);
    t.is(row.rows[0].token, accountToken(id));
  }
});

test.serial(
  'the endpoint is rate limited per app: past 100 posts within a second, 429 with Retry-After; another app is not held back',
  async (t) => {
    const flooded = `app_${randomUUID().replace(/-/g, '')}`;
    const post = (appId: string) => request(h().baseUrl, 'POST', `/api/webhooks/apple/${appId}`, { body: {} });
    // All at once: the sliding window admits 100 of them and refuses the rest (the admitted ones reach validation: 422).
    const answers = await clock.held(() => Promise.all(Array.from({ length: 160 }, () => post(flooded))));
    const statuses = answers.map((r) => r.status);
    t.deepEqual([...new Set(statuses)].sort(), [422, 429]);
    t.is(statuses.filter((s) => s !== 429).length, 100, 'never more than 100 admitted within the second');
    t.truthy(answers.find((r) => r.status === 429)!.headers.get('retry-after'));
    t.is((await post(`app_${randomUUID().replace(/-/g, '')}`)).status, 422, 'another app is not held back');
  },
);
