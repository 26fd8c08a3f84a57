// What the Google Play push endpoint, the tests and the play-notification workflow share: its id, input, the plan
// its first activity reads from the notification, and its outcome. No workflow code here.
import type { NotificationKind } from '../lib/play-notification.js';
import type { PurchaseEvent } from '../lib/purchase-event.js';
import type { IngestResult } from './conversion-messages.js';

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
