// The App Store workflows for `npm run replay:record`: an iOS store-direct app (a key stored encrypted, checked ok,
// the platform activated, as bench/store-purchase.ts sets it up) against the stubs of test/helpers/store-direct.ts
// (App Store Server API, ECB rates) and a signing chain made here, configured as the trusted root.
// `store-purchase-ios`: the app's report of a signed transaction with the creator's code, verified, priced and handed
// to its conversion. `store-notification-renewal`: Apple's DID_RENEW of that subscription, taken in through the
// webhook's own intake (workflow-clients/apple-notification-intake.ts). `store-notification-unreported`: a first
// purchase bound to no user waits for the app's report (STORE_NOTIFICATION_BINDING_WAIT_MS, 600 ms here; a timer),
// none comes, and it is applied as organic. `notification-history`: the hourly catch-up's first run (its first read
// at start lists one notification we missed; the update reads again now; after readsPerRun 2 it continues as new).
import { generateKeyPairSync } from 'node:crypto';
import { activateStoreDirect, recordCredentialCheck, saveCredential } from '../../db/store-credentials-writes.js';
import { SecretBox } from '../../lib/secret-box.js';
import { proofHash } from '../../lib/store-purchase.js';
import { takeInAppleNotification } from '../../workflow-clients/apple-notification-intake.js';
import { startNotificationHistory } from '../../workflow-clients/notification-history.js';
import { startStorePurchase } from '../../workflow-clients/store-purchase.js';
import { notificationHistoryWorkflowId, readNotificationHistoryNowUpdate } from '../../workflows/notification-history-messages.js';
import { storeNotificationWorkflowId, type StoreNotificationOutcome } from '../../workflows/store-notification-messages.js';
import { notificationPayload, signTransaction, transactionPayload, type TransactionFields } from '../helpers/apple-signing.js';
import { seedApp } from '../helpers/seed.js';
import { ISSUER, KEY_ID, startStoreStubs, storeConfig, type StoreWorld } from '../helpers/store-direct.js';
import { historyJson, type Recorded, type Recording } from './history-json.js';

const APPLE_ID = 1234567890;
const APPLE_SOURCE = 'app_store_notification';

/** A new app switched to iOS store-direct against the world's Apple stub; answers its id, bundle and creator code. */
async function iosStoreDirect(r: Recording, world: StoreWorld): Promise<{ appId: string; bundleId: string; code: string }> {
  const app = await seedApp(r.db, { walletUsd: 500 });
  const bundleId = `com.example.replay${app.app_id
    .replace(/[^a-z0-9]/gi, '')
    .slice(-8)
    .toLowerCase()}`;
  const pair = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  await saveCredential(
    r.db,
    new SecretBox(r.config.SVC_MASTER_KEY!),
    app.app_id,
    'ios',
    pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    { key_id: KEY_ID, issuer_id: ISSUER, bundle_id: bundleId, environment: 'PRODUCTION' },
  );
  await r
    .db('apps')
    .where('id', app.app_id)
    .update({ app_store_id: String(APPLE_ID) });
  world.apple.expect = { publicKey: pair.publicKey, kid: KEY_ID, iss: ISSUER, bid: bundleId };
  await recordCredentialCheck(r.db, app.app_id, 'ios', 'ok', null);
  if (!(await activateStoreDirect(r.db, app.app_id, 'ios'))) throw new Error('apple: could not activate store-direct');
  return { appId: app.app_id, bundleId, code: app.creator_code };
}

export async function recordAppleWorkflows(r: Recording, wanted: (name: string) => boolean): Promise<Recorded[]> {
  const world = await startStoreStubs();
  const saved = {
    APPLE_API_ROOT: r.config.APPLE_API_ROOT,
    GOOGLE_PLAY_API_ROOT: r.config.GOOGLE_PLAY_API_ROOT,
    GOOGLE_TOKEN_URL: r.config.GOOGLE_TOKEN_URL,
    APPLE_ROOT_CERTS: r.config.APPLE_ROOT_CERTS,
    FX_RATES_URL: r.config.FX_RATES_URL,
    STORE_NOTIFICATION_BINDING_WAIT_MS: r.config.STORE_NOTIFICATION_BINDING_WAIT_MS,
  };
  const recorded: Recorded[] = [];
  try {
    Object.assign(r.config, storeConfig(world), { STORE_NOTIFICATION_BINDING_WAIT_MS: 600 });
    const app = await iosStoreDirect(r, world);
    const sign = (payload: Record<string, unknown>) => signTransaction(world.chain, payload);
    const tx = (fields: Omit<TransactionFields, 'bundleId'> = {}) => transactionPayload({ bundleId: app.bundleId, ...fields });
    const notified = (type: string, transaction: Record<string, unknown>, subtype?: string) =>
      notificationPayload({
        notificationType: type,
        subtype,
        bundleId: app.bundleId,
        appAppleId: APPLE_ID,
        signedTransactionInfo: sign(transaction),
      });

    /** Taken in as the webhook takes it in; answers its workflow's history once the run closed. */
    const notify = async (name: string, payload: Record<string, unknown>, expect: Partial<StoreNotificationOutcome>) => {
      const deps = { db: r.db, config: r.config, temporal: r.client, taskQueue: r.taskQueue, warn: () => undefined };
      const taken = await takeInAppleNotification(deps, app.appId, sign(payload));
      if (taken.kind !== 'taken' || !taken.started) throw new Error(`${name}: not taken in ${JSON.stringify(taken)}`);
      const workflowId = storeNotificationWorkflowId({ appId: app.appId, source: APPLE_SOURCE, externalId: taken.notificationUUID });
      const outcome = await r.client.workflow.getHandle<() => Promise<StoreNotificationOutcome>>(workflowId).result();
      if (outcome.kind !== expect.kind || outcome.waited !== expect.waited) throw new Error(`${name}: ${JSON.stringify(outcome)}`);
      recorded.push({ name, ...(await historyJson(r.address, workflowId)) });
    };

    const first = tx({ purchaseDate: Date.now() - 40 * 86_400_000 });
    if (wanted('store-purchase')) {
      const handle = await startStorePurchase(r.client, r.taskQueue, {
        appId: app.appId,
        platform: 'ios',
        proofHash: proofHash('ios', first.transactionId as string),
        signedTransaction: sign(first),
        referralCode: app.code,
        appUserId: 'replay-user',
        receivedAtMs: Date.now(),
      });
      const answer = await handle.result();
      if (!answer.success) throw new Error(`store-purchase-ios: ${JSON.stringify(answer)}`);
      recorded.push({ name: 'store-purchase-ios', ...(await historyJson(r.address, handle.workflowId)) });
    }
    if (wanted('store-notification')) {
      const renewal = tx({ originalTransactionId: first.transactionId as string, purchaseDate: Date.now() - 10 * 86_400_000 });
      await notify('store-notification-renewal', notified('DID_RENEW', renewal), { kind: 'events', waited: null });
      await notify('store-notification-unreported', notified('SUBSCRIBED', tx(), 'INITIAL_BUY'), { kind: 'events', waited: 'timed_out' });
    }
    if (wanted('notification-history')) {
      const missed = tx({ originalTransactionId: first.transactionId as string, purchaseDate: Date.now() - 5 * 86_400_000 });
      world.apple.history = { pages: [[sign(notified('DID_RENEW', missed))]], rateLimitOnce: false, requests: [] };
      await startNotificationHistory(r.client, r.taskQueue, { appId: app.appId, intervalMs: 1000, readsPerRun: 2 });
      const handle = r.client.workflow.getHandle(notificationHistoryWorkflowId(app.appId));
      const summary = await handle.executeUpdate(readNotificationHistoryNowUpdate);
      if (!summary.active || summary.error) throw new Error(`notification-history: ${JSON.stringify(summary)}`);
      const firstRunId = (await handle.describe()).raw.workflowExecutionInfo?.firstRunId ?? undefined;
      for (let i = 0; i < 300; i += 1) {
        if ((await handle.describe()).runId !== firstRunId) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      recorded.push({ name: 'notification-history', ...(await historyJson(r.address, handle.workflowId, firstRunId)) });
      await handle.terminate('recorded');
    }
  } finally {
    Object.assign(r.config, saved);
    await world.close();
  }
  return recorded;
}
