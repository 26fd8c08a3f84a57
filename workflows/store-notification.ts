// The one store-notification flow that both registered types run (`storeNotificationWorkflow`, App Store:
// workflows/apple-notification.ts; `playNotificationWorkflow`, Google Play: workflows/google-notification.ts; docs/
// store-direct.md "Server notifications" and "Google Play notifications"). A notification was verified and kept in
// raw_intake before the store heard 200; the flow plans what it asks for, waits (a first purchase bound to no user)
// for the app's own report, which carries the user and the referral code, prices the events in USD, hands them to
// the SAME conversion workflows as /sdk/purchase (same idempotency keys: notified and reported counts once) and marks
// the kept item normalised. Each store's activities (registered names, timeouts, retries) sit behind the adapter
// below; the commands of each type are exactly those of its recorded histories (test/replay/histories/).
import { sleep } from '@temporalio/workflow';
import type { PurchaseEvent } from '../lib/purchase-event.js';

/** How the flow waits for the app's report of the first event; null: it does not wait. */
export interface ReportWait {
  waitMs: number;
  /** Between looks (a durable timer each). */
  everyMs: number;
  /** Look before the first timer: Google's plan has not looked yet, Apple's plan waits only when it looked. */
  lookFirst: boolean;
}

/** What the flow learnt, for the store's outcome. */
export interface FlowResult<Plan, Settled, Handed> {
  plan: Plan;
  /** The store's own step before counting (Google: the refund of a voided purchase); undefined without one. */
  settled: Settled | undefined;
  /** Whether the app's report came while the flow waited; null: it did not wait. */
  reported: boolean | null;
  /** What the hand-over answered; null: nothing was counted. */
  handed: Handed | null;
}

/** A store's side of the flow: its activity stubs (each under its registered name) and its reading of their answers. */
export interface StoreNotificationAdapter<Input extends { appId: string }, Plan, Settled, Handed, Outcome> {
  /** The first activity: the kept notification as a plan. */
  plan(input: Input): Promise<Plan>;
  /** A step of the store's own before anything is counted. */
  settle?(input: Input, plan: Plan): Promise<Settled>;
  /** The unpriced events to count, in order; null: nothing to count. */
  toCount(plan: Plan): PurchaseEvent[] | null;
  reportWait(input: Input, plan: Plan): ReportWait | null;
  isReported(look: { appId: string; event: PurchaseEvent }): Promise<boolean>;
  price(input: Input, events: PurchaseEvent[], plan: Plan): Promise<PurchaseEvent[]>;
  handOver(input: Input, priced: PurchaseEvent[]): Promise<Handed>;
  /** Marks the kept item normalised once everything of it was handed over (`handed` null: nothing was). */
  markDone(input: Input, handed: Handed | null): Promise<void>;
  outcome(input: Input, result: FlowResult<Plan, Settled, Handed>): Outcome;
}

export async function runStoreNotification<Input extends { appId: string }, Plan, Settled, Handed, Outcome>(
  store: StoreNotificationAdapter<Input, Plan, Settled, Handed, Outcome>,
  input: Input,
): Promise<Outcome> {
  const plan = await store.plan(input);
  const settled = store.settle ? await store.settle(input, plan) : undefined;
  const events = store.toCount(plan);
  let reported: boolean | null = null;
  let handed: Handed | null = null;
  if (events) {
    const wait = store.reportWait(input, plan);
    if (wait) reported = await waitForTheAppsReport(() => store.isReported({ appId: input.appId, event: events[0]! }), wait);
    handed = await store.handOver(input, await store.price(input, events, plan));
  }
  await store.markDone(input, handed);
  return store.outcome(input, { plan, settled, reported, handed });
}

/** Until the app's report is recorded or the wait (workflow time, durable timers) is over; whether it came. */
async function waitForTheAppsReport(isReported: () => Promise<boolean>, wait: ReportWait): Promise<boolean> {
  const deadline = Date.now() + wait.waitMs;
  if (wait.lookFirst && (await isReported())) return true;
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0) return false;
    await sleep(Math.min(wait.everyMs, left));
    if (await isReported()) return true;
  }
}
