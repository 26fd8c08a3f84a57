// What the webhooks, the history catch-up, the tests and the store-notification workflows share, per store: the
// workflow ids, inputs, the plan the Google adapter's first activity reads and the outcomes. Both registered types run
// one flow (workflows/store-notification.ts). No workflow code here.
import type { NotificationKind } from '../lib/play-notification.js';
import type { PurchaseEvent } from '../lib/purchase-event.js';
import type { IngestResult } from './conversion-messages.js';

// ---- App Store: `storeNotificationWorkflow` (workflows/apple-notification.ts) ----

/** One raw notification to normalise: the raw_intake row (app, source, external id). */
export interface StoreNotificationInput {
  appId: string;
  source: string;
  externalId: string;
  /** How long an unbound first purchase waits for the app's report (ms); default 10 minutes. */
  bindingWaitMs?: number;
}

export interface StoreNotificationOutcome {
  kind: 'events' | 'test' | 'ignored';
  /** Why nothing was counted (ignored), or the first processing error of a handed-over event. */
  reason: string | null;
  /** Per event handed over: its type, event id and the pipeline's error (null: processed). */
  events: { type: string; eventId: string | null; error: string | null; duplicate: boolean }[];
  /** An unbound first purchase waited for the app's report (and whether it came). */
  waited: 'reported' | 'timed_out' | null;
}

export const DEFAULT_BINDING_WAIT_MS = 10 * 60_000;

export function storeNotificationWorkflowId(i: Pick<StoreNotificationInput, 'appId' | 'source' | 'externalId'>): string {
  return `store-notification/${i.appId}/${i.source}/${i.externalId}`;
}

// ---- Google Play: `playNotificationWorkflow` (workflows/google-notification.ts) ----

export interface PlayNotificationInput {
  appId: string;
  /** Pub/Sub's message id: the key of the raw_intake row that keeps the verified push (source play_rtdn). */
  messageId: string;
  /** How long an initial purchase bound to no attributed user waits for the app's report (PLAY_RTDN_REPORT_WAIT_MS). */
  reportWaitMs: number;
}

/** What the notification asks for, read from Google. */
export interface PlayNotificationPlan {
  kind: NotificationKind;
  /** Google's event time (the FX date of notified renewals). */
  eventTimeMs: number;
  /** Subscription: the periods to record in sequence, then its lifecycle event; unpriced. */
  events: PurchaseEvent[];
  /** The first sight of a subscription whose buyer binds to no attributed user: the app's report may carry the code. */
  awaitReport: boolean;
  /** A voided purchase: the order to refund. */
  voided: { purchaseToken: string; orderId: string } | null;
  /** Why nothing is recorded (a pending purchase, a platform no longer store-direct), for the outcome. */
  note: string | null;
}

export interface PlayNotificationOutcome {
  kind: NotificationKind;
  results: IngestResult[];
  /** voided: refunded, ignored (an order we never recorded), or left to the voided-purchases poll. */
  refund: 'refund' | 'ignored' | 'left_to_poll' | null;
  /** An awaited report: whether the app reported the purchase while the notification waited. */
  reportedMeanwhile: boolean;
  note: string | null;
}

export function playNotificationWorkflowId(appId: string, messageId: string): string {
  return `play-notification/${appId}/${messageId}`;
}
