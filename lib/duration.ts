// Temporal durations ("30 days", "1 second", "200ms", or milliseconds as a number) in milliseconds. Pure, so
// workflow code may use it; the SDK's own converter is internal to its package.
//
// Not `ms` (weighed in issue 37: 2.1.3 is its last release, 3.x only canaries; @temporalio/common pins
// 3.0.0-canary.1): its grammar is another one. Both versions answer NaN for " 3 Days " (no trimming) and for a tab
// before the unit, read "-1 day" as -86,400,000, ".5h" as 1,800,000 and "1 year" as 31,557,600,000 (all refused
// here), keep fractions of a millisecond ("1.5 msec" is 1.5; here 2) and throw their own error text for "". Keeping
// the accepted forms and the RangeError text would put this grammar's check in front of it: only the unit table
// would go.
import type { Duration } from '@temporalio/common';

const UNIT_MS: Record<string, number> = {
  ms: 1,
  msec: 1,
  msecs: 1,
  millisecond: 1,
  milliseconds: 1,
  s: 1000,
  sec: 1000,
  secs: 1000,
  second: 1000,
  seconds: 1000,
  m: 60_000,
  min: 60_000,
  mins: 60_000,
  minute: 60_000,
  minutes: 60_000,
  h: 3_600_000,
  hr: 3_600_000,
  hrs: 3_600_000,
  hour: 3_600_000,
  hours: 3_600_000,
  d: 86_400_000,
  day: 86_400_000,
  days: 86_400_000,
  w: 604_800_000,
  week: 604_800_000,
  weeks: 604_800_000,
};

export function durationToMs(duration: Duration): number {
  if (typeof duration === 'number') {
    if (!Number.isFinite(duration) || duration < 0) throw new RangeError(`invalid duration: ${duration}`);
    return duration;
  }
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(duration);
  const factor = match ? UNIT_MS[(match[2] || 'ms').toLowerCase()] : undefined;
  if (!match || factor === undefined) throw new RangeError(`invalid duration: ${JSON.stringify(duration)}`);
  return Math.round(Number(match[1]) * factor);
}
