// Temporal durations ("30 days", "1 second", "200ms", or milliseconds as a number) in milliseconds. Pure, so
// workflow code may use it; the SDK's own converter is internal to its package.
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
