// Store-direct from the outside, for integration tests and drills (an in-process harness or `svc` processes): the
// stubs (App Store Server API, Google OAuth + androidpublisher, ECB rates), an Apple chain the test made (its root
// configured as APPLE_ROOT_CERTS), and an agent switching a platform to store-direct the way an agent does: signed
// credential-upload link, green-check (the credential-check workflow against the stubs), activation.
import { generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { createAgentKey } from '../../db/agent-keys-writes.js';
import { SCOPES } from '../../lib/scopes.js';
import { createAppleChain, signTransaction, transactionPayload, type AppleChain, type TransactionFields } from './apple-signing.js';
import type { TestFn } from 'ava';
import type { Harness, HarnessAccessor } from './harness.js';
import { request } from './http.js';
import { seedApp, type SeededApp } from './seed.js';
import { startAppleStub, type AppleStub } from '../stubs/apple-api.js';
import { businessDays, startEcbStub, type EcbStub } from '../stubs/ecb-rates.js';
import { startGoogleStub, type GoogleStub } from '../stubs/google-api.js';
import { storeNotificationWorkflowId, type StoreNotificationOutcome } from '../../workflows/store-notification-messages.js';

export const KEY_ID = 'ABCDE12345';
export const ISSUER = '57246542-96fe-1a63-e053-0824d011072a';
export const CLIENT_EMAIL = 'svc@proj.iam.gserviceaccount.com';
/** The app's Apple id the iOS switch uploads (production notifications must name it). */
export const APP_APPLE_ID = 1234567890;

/** Rates every published day has unless a test sets its own (units per EUR). */
export const DEFAULT_RATES = { USD: '1.1000', JPY: '160.00', GBP: '0.8500' } as const;

export interface StoreWorld {
  apple: AppleStub;
  google: GoogleStub;
  ecb: EcbStub;
  chain: AppleChain;
  close(): Promise<void>;
}

/** The stubs and the chain, with the default rates for the last 400 days; `storeConfig` says where they are. */
export async function startStoreStubs(): Promise<StoreWorld> {
  const [apple, google, ecb, chain] = await Promise.all([startAppleStub(), startGoogleStub(), startEcbStub(), createAppleChain()]);
  const today = new Date().toISOString().slice(0, 10);
  const from = new Date(Date.now() - 400 * 86_400_000).toISOString().slice(0, 10);
  for (const [day, rates] of businessDays(from, today, DEFAULT_RATES)) ecb.days.set(day, rates);
  return {
    apple,
    google,
    ecb,
    chain,
    close: async () => {
      await Promise.all([apple.close(), google.close(), ecb.close()]);
    },
  };
}

/** The configuration that sends the server to the stubs and trusts the chain (also the environment of a `svc` process). */
export function storeConfig(world: StoreWorld): Record<string, string> {
  return {
    APPLE_API_ROOT: world.apple.url,
    GOOGLE_PLAY_API_ROOT: world.google.url,
    GOOGLE_TOKEN_URL: world.google.tokenUrl,
    APPLE_ROOT_CERTS: world.chain.rootPath,
    FX_RATES_URL: world.ecb.url,
  };
}

export async function startStoreWorld(h: Harness): Promise<StoreWorld> {
  const world = await startStoreStubs();
  Object.assign(h.config, storeConfig(world));
  return world;
}

/** The running store stubs of a test file; `ready()` for a before hook of the file's own (ava runs hooks concurrently). */
export type StoreWorldAccessor = (() => StoreWorld) & { ready: () => Promise<StoreWorld> };

/** Starts the store stubs once the harness runs, for every test of the file, and closes them after the last. */
export function useStoreWorld(test: TestFn<unknown>, h: HarnessAccessor): StoreWorldAccessor {
  let world: StoreWorld | undefined;
  let starting: Promise<StoreWorld> | undefined;
  const ready = () => (starting ??= h.ready().then(async (running) => (world = await startStoreWorld(running))));
  test.before(async () => {
    await ready();
  });
  test.after.always(async () => {
    await world?.close();
  });
  return Object.assign(
    () => {
      if (!world) throw new Error('the store stubs are not running yet: await world.ready() in a before hook');
      return world;
    },
    { ready },
  );
}

/** Where the API answers: the test's in-process harness or a `svc api` process. */
export type ApiHost = Pick<Harness, 'baseUrl'>;

export type StoreAccount = SeededApp & { agentKey: string; bundleId: string; packageName: string };

export async function storeAccount(h: Pick<Harness, 'db'>, opts: { walletUsd?: number } = {}): Promise<StoreAccount> {
  const app = await seedApp(h.db, opts);
  const { key } = await createAgentKey(h.db, { orgId: app.org_id, name: 'store-direct', scopes: SCOPES });
  const tag = app.app_id
    .replace(/[^a-z0-9]/gi, '')
    .slice(-8)
    .toLowerCase();
  return { ...app, agentKey: key, bundleId: `com.example.app${tag}`, packageName: `com.example.game${tag}` };
}

export const agentCall = (h: ApiHost, a: StoreAccount, method: string, path: string, body?: unknown) =>
  request(h.baseUrl, method, `/api/agent${path}`, { token: a.agentKey, body });

const pem = (k: KeyObject) => k.export({ type: 'pkcs8', format: 'pem' }).toString();

async function upload(h: ApiHost, a: StoreAccount, body: Record<string, unknown>): Promise<void> {
  const link = await agentCall(h, a, 'POST', `/apps/${a.app_id}/credential-setup-link`, { platform: body.platform });
  const url = link.body.url as string;
  const stored = await request(h.baseUrl, 'POST', url.slice(h.baseUrl.length), { body, headers: { accept: 'text/html' } });
  if (stored.status !== 200) throw new Error(`credential upload: ${stored.status} ${stored.text}`);
}

/** Upload through the signed link, green-check (workflow), activation: the agent's whole switch of one platform. */
export async function switchToStoreDirect(
  h: ApiHost,
  world: StoreWorld,
  a: StoreAccount,
  platform: 'ios' | 'android',
  extraUpload: Record<string, unknown> = {},
): Promise<{ check: any; activation: any }> {
  if (platform === 'ios') {
    const pair = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    await upload(h, a, {
      platform: 'ios',
      key_id: KEY_ID,
      issuer_id: ISSUER,
      bundle_id: a.bundleId,
      environment: 'production',
      private_key: pem(pair.privateKey),
      app_apple_id: String(APP_APPLE_ID),
      ...extraUpload,
    });
    world.apple.expect = { publicKey: pair.publicKey, kid: KEY_ID, iss: ISSUER, bid: a.bundleId };
  } else {
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    await upload(h, a, {
      platform: 'android',
      package_name: a.packageName,
      service_account_json: { type: 'service_account', client_email: CLIENT_EMAIL, private_key: pem(pair.privateKey), project_id: 'proj' },
      ...extraUpload,
    });
    world.google.expect = { publicKey: pair.publicKey, clientEmail: CLIENT_EMAIL, packageName: a.packageName };
  }
  const check = await agentCall(h, a, 'POST', `/apps/${a.app_id}/validate-store-credentials`, { platform });
  if (check.status !== 200 || check.body.status !== 'ok') throw new Error(`green-check: ${check.status} ${check.text}`);
  const activation = await agentCall(h, a, 'POST', `/apps/${a.app_id}/activate-store-direct`, { platform });
  if (activation.status !== 200) throw new Error(`activation: ${activation.status} ${activation.text}`);
  return { check: check.body, activation: activation.body };
}

/** A transaction of the account's app signed by the world's chain. */
export function signedTransaction(
  world: StoreWorld,
  a: StoreAccount,
  fields: Omit<TransactionFields, 'bundleId'> = {},
): { jws: string; payload: Record<string, unknown> } {
  const payload = transactionPayload({ bundleId: a.bundleId, ...fields });
  return { jws: signTransaction(world.chain, payload), payload };
}

export const reportPurchase = (h: ApiHost, a: StoreAccount, body: unknown) =>
  request(h.baseUrl, 'POST', '/api/sdk/purchase', { token: a.sdk_key, body });

/** Posts an App Store notification payload, signed by the world's chain, to the app's endpoint; its workflow's outcome. */
export async function notifyApple(
  h: Pick<Harness, 'baseUrl' | 'temporal'>,
  world: StoreWorld,
  a: StoreAccount,
  payload: Record<string, unknown>,
): Promise<StoreNotificationOutcome> {
  const res = await request(h.baseUrl, 'POST', `/api/webhooks/apple/${a.app_id}`, {
    body: { signedPayload: signTransaction(world.chain, payload) },
  });
  if (res.status !== 200) throw new Error(`notification answered ${res.status} ${res.text}`);
  const id = storeNotificationWorkflowId({
    appId: a.app_id,
    source: 'app_store_notification',
    externalId: payload.notificationUUID as string,
  });
  return (await h.temporal.workflow.getHandle(id).result()) as StoreNotificationOutcome;
}

export const ANSWER_KEYS = ['duplicate', 'environment', 'event_type', 'recorded', 'result', 'success', 'validated'];

/** A Google Play order id of the real shape (GPA.1234-5678-9012-34567), fresh each call. */
export const newOrderId = () =>
  `GPA.${randomUUID().slice(0, 4)}-${randomUUID().slice(0, 4)}-${randomUUID().slice(0, 4)}-${randomUUID().slice(0, 5)}`;

/** The organization's wallet ledger in order, as [entry type, balance change, reserved change] (micros). */
export const ledgerOf = (h: Harness, a: StoreAccount) =>
  h
    .db('wallet_ledger')
    .where('org_id', a.org_id)
    .orderBy('id')
    .select('entry_type', 'balance_delta_micros', 'reserved_delta_micros')
    .then((rows) => rows.map((e) => [e.entry_type, Number(e.balance_delta_micros), Number(e.reserved_delta_micros)]));

/**
 * Google's subscriptionsv2 answer for `token` in the stub: active (or `state`), its latest order `orderId`, $9.99 a
 * month. Its start time stays that of the first answer, as Google's does (`startDaysAgo` sets it the first time).
 */
export function setPlaySubscription(
  world: StoreWorld,
  token: string,
  orderId: string,
  opts: { state?: string; test?: boolean; account?: string; startDaysAgo?: number } = {},
) {
  const startTime =
    world.google.subscriptions.get(token)?.startTime ?? new Date(Date.now() - (opts.startDaysAgo ?? 40) * 86_400_000).toISOString();
  world.google.subscriptions.set(token, {
    subscriptionState: opts.state ?? 'SUBSCRIPTION_STATE_ACTIVE',
    startTime,
    ...(opts.test ? { testPurchase: {} } : {}),
    ...(opts.account ? { externalAccountIdentifiers: { obfuscatedExternalAccountId: opts.account } } : {}),
    lineItems: [
      {
        productId: 'pro_monthly',
        latestSuccessfulOrderId: orderId,
        expiryTime: new Date(Date.now() + 20 * 86_400_000).toISOString(),
        autoRenewingPlan: { autoRenewEnabled: true, recurringPrice: { currencyCode: 'USD', units: '9', nanos: 990_000_000 } },
      },
    ],
  });
}
