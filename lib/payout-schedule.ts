// When an organization's payout schedule fires (docs/wallet-and-payouts.md "Schedules"). The Temporal schedule
// `payout-schedule/{org_id}` is an interval spec `{ every: period }` with no offset, and Temporal anchors interval
// specs at the Unix epoch: it fires at every epoch + n * period. So the next fire is computable from the period alone,
// the same way the schedule computes it (test/integration/creator-owed.test.ts compares it with the schedule's own
// next action time on the dev server). Written once: the schedule's spec is built here too.
const HOUR_MS = 3_600_000;

/** The interval spec of a payout schedule of `periodHours` (workflow-clients/payout-runs.ts). */
export function payoutScheduleInterval(periodHours: number): { every: number } {
  return { every: periodHours * HOUR_MS };
}

/** The first scheduled fire strictly after `now`, or null when the organization pays on demand only. */
export function nextScheduledPayout(periodHours: number | null, now: Date): Date | null {
  if (periodHours === null || periodHours <= 0) return null;
  const every = payoutScheduleInterval(periodHours).every;
  return new Date((Math.floor(now.getTime() / every) + 1) * every);
}
