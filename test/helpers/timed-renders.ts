// A page rendered several times one after the other, for the dashboard tests' render-time log line and its sanity
// bound: the answers' statuses, the last answer, and the median and slowest time.
export interface TimedRenders<R> {
  last: R;
  statuses: number[];
  p50: number;
  max: number;
}

export async function timedRenders<R extends { status: number }>(n: number, render: () => Promise<R>): Promise<TimedRenders<R>> {
  const times: number[] = [];
  const statuses: number[] = [];
  let last!: R;
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    last = await render();
    times.push(performance.now() - started);
    statuses.push(last.status);
  }
  times.sort((a, b) => a - b);
  return { last, statuses, p50: times[Math.floor(n / 2)]!, max: times[n - 1]! };
}
