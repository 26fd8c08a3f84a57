// Taking in one App Store Server Notification V2 ("inbox first", docs/store-direct.md "Server notifications"):
// the app's gate, the signature of the payload and of its transaction and renewal info, the bundle id and (in
// production) the app's Apple id; then the verified item is kept in raw_intake once per notificationUUID and its
// normalising workflow is started. The webhook answers 200 once the row is written: a workflow that could not start
// now is started by the hourly catch-up (workflows/notification-history.ts). Used by the webhook and by the
// catch-up, which feeds what Apple's Notification History lists through this same path.
import type { WorkflowClient } from '@temporalio/client';
import type { Knex } from 'knex';
import { sharedAppleVerifier } from '../clients/apple-app-store.js';
import { findApp } from '../db/apps.js';
import { takeInStoreNotification } from '../actions/store-notification-intake.js';
import { NOTIFICATION_SOURCES } from '../db/store-notifications.js';
import { findStoreDirectSetup } from '../db/store-credentials.js';
import type { Config } from '../runtime/config.js';
import { gateRefusalDetail, notSwitchedDetail } from '../errors/store-direct-refusals.js';
import { storeDirectGate } from '../lib/store-purchase.js';
import { STORE_VERIFIER } from '../lib/validation-providers.js';
import type { JsonObject } from '../schema/types.js';
import { startStoreNotification } from './store-notification.js';

export interface IntakeDeps {
  db: Knex;
  config: Config;
  temporal: { workflow: WorkflowClient };
  taskQueue: string;
  /** pino's argument order; the catch-up adapts the activity logger. */
  warn: (context: Record<string, unknown>, message: string) => void;
}

export type IntakeOutcome =
  /** Kept (or kept before: `inserted` false); its workflow started unless it could not start now. */
  | { kind: 'taken'; notificationUUID: string; notificationType: string; inserted: boolean; started: boolean }
  | { kind: 'unknown_app' }
  /** The iOS platform is on the subscription-provider path: acknowledged, nothing recorded. */
  | { kind: 'ignored'; reason: string }
  /** Does not verify, or belongs to another app: nothing recorded. */
  | { kind: 'rejected'; detail: string }
  /** Our side cannot take it now (configuration missing, Apple's OCSP away): the store should deliver again. */
  | { kind: 'unavailable'; detail: string };

export const APPLE_SOURCE = NOTIFICATION_SOURCES.ios;

export async function takeInAppleNotification(deps: IntakeDeps, appId: string, signedPayload: string): Promise<IntakeOutcome> {
  const [app, setup] = await Promise.all([findApp(deps.db, appId), findStoreDirectSetup(deps.db, appId, 'ios')]);
  if (!app || !setup) return { kind: 'unknown_app' };
  if (setup.provider !== STORE_VERIFIER.ios && (setup.provider === 'subprovider' || app.webhook_connected_at !== null)) {
    return {
      kind: 'ignored',
      reason:
        "iOS purchases of this app are validated through the subscription provider's webhooks: " +
        "the App Store's notification is acknowledged and not counted, so no purchase counts twice",
    };
  }
  const verifier = sharedAppleVerifier(deps.config);
  // The green-check asks for a TEST notification before the switch: with the uploaded key's bundle id a TEST one is
  // taken in (it proves the path wired, moves nothing); anything else waits for the switch (503, Apple retries).
  const switched = setup.provider === STORE_VERIFIER.ios;
  const gate = storeDirectGate('ios', { ...setup, provider: STORE_VERIFIER.ios }, verifier !== undefined);
  if (!gate.ok) return { kind: 'unavailable', detail: switched ? gateRefusalDetail(appId, 'ios', gate) : notSwitchedDetail(appId, 'ios') };
  const appleId = setup.appAppleId && /^\d+$/.test(setup.appAppleId) ? Number(setup.appAppleId) : undefined;
  const checked = await verifier!.verifyNotification(signedPayload, gate.storeId, appleId);
  if (!checked.ok) {
    if (checked.missing)
      return {
        kind: 'unavailable',
        detail:
          `Production notifications need the app's Apple id: upload the App Store ` +
          `credential again with app_apple_id (POST /api/agent/apps/${appId}/credential-setup-link).`,
      };
    if (checked.retryable) return { kind: 'unavailable', detail: `The notification could not be verified now: ${checked.reason}.` };
    return { kind: 'rejected', detail: `Verification failed: ${checked.reason}.` };
  }
  const { notification, transaction, renewalInfo } = checked;
  const uuid = notification.notificationUUID;
  if (!uuid) return { kind: 'rejected', detail: 'Verification failed: the notification has no notificationUUID.' };
  const type = String(notification.notificationType ?? '');
  if (!switched && type !== 'TEST') return { kind: 'unavailable', detail: notSwitchedDetail(appId, 'ios') };
  const payload = JSON.parse(
    JSON.stringify({ signedPayload, notification, transaction: transaction ?? null, renewalInfo: renewalInfo ?? null }),
  ) as JsonObject;
  const { row, inserted } = await takeInStoreNotification(deps, {
    appId,
    source: APPLE_SOURCE,
    externalId: uuid,
    payload,
    test: type === 'TEST',
  });
  const started =
    row.normalised_at !== null ||
    (await startWithin(deps, {
      appId,
      source: APPLE_SOURCE,
      externalId: uuid,
      bindingWaitMs: deps.config.STORE_NOTIFICATION_BINDING_WAIT_MS,
    }));
  return { kind: 'taken', notificationUUID: uuid, notificationType: type, inserted, started };
}

/** The row is kept already: a Temporal that is away or slow must not hold the store's answer past a few seconds. */
const START_WITHIN_MS = 5_000;

async function startWithin(deps: IntakeDeps, input: Parameters<typeof startStoreNotification>[2]): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const start = startStoreNotification(deps.temporal, deps.taskQueue, input).then(
    () => true,
    (err: unknown) => {
      deps.warn(
        { err, appId: input.appId, notificationUUID: input.externalId },
        'store notification kept; its workflow starts with the next catch-up',
      );
      return false;
    },
  );
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), START_WITHIN_MS);
  });
  try {
    return await Promise.race([start, late]);
  } finally {
    clearTimeout(timer);
  }
}
