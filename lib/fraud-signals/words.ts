// Numbers and durations in the words the evidence sentences use ("4 installs ... with one device model in 12
// minutes"). Counts of things a developer compares (installs, purchases) stay digits; small counts of kinds (device
// models, users) read better as words.

const SMALL = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

/** `4 installs`, `1 install`. */
export function count(n: number, noun: string, nouns = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : nouns}`;
}

/** `one device model`, `three device models`, `12 device models`. */
export function spelled(n: number, noun: string, nouns = `${noun}s`): string {
  return `${SMALL[n] ?? String(n)} ${n === 1 ? noun : nouns}`;
}

/** A span of time: `under a minute`, `12 minutes`, `5 hours`, `3 days`. */
export function span(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (ms < 60_000) return 'under a minute';
  if (minutes < 120) return count(minutes, 'minute');
  const hours = Math.round(ms / 3_600_000);
  if (hours < 48) return count(hours, 'hour');
  return count(Math.round(ms / 86_400_000), 'day');
}

/** A rate as a percentage: `40%`, `2.5%`, `0%`. */
export function percent(rate: number): string {
  const p = rate * 100;
  return `${p >= 10 || p === 0 ? Math.round(p) : Math.round(p * 10) / 10}%`;
}

/** A duration in seconds, for the click-to-install time: `3 seconds`, `1 second`, `150 seconds`, `12 minutes`. */
export function seconds(s: number): string {
  return s < 300 ? count(Math.round(s), 'second') : span(s * 1000);
}

/** `a`, `a and b`, `a, b and c`. */
export function list(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}
