// The benchmark's load shapes keep each stream in order with at most one request in flight, and send everything once.
import test from 'ava';
import { closedLoop, mm1P99, openLoop, pct } from '../../bench/load.js';

function streams(n: number, len: number): string[][] {
  return Array.from({ length: n }, (_, s) => Array.from({ length: len }, (_, i) => `${s}:${i}`));
}

function recorder() {
  const sent: string[] = [];
  const busy = new Set<string>();
  let overlap = 0;
  const send = async (item: string) => {
    const stream = item.split(':')[0]!;
    if (busy.has(stream)) overlap++;
    busy.add(stream);
    await new Promise((r) => setTimeout(r, Math.random() * 5));
    sent.push(item);
    busy.delete(stream);
  };
  return { sent, send, overlap: () => overlap };
}

function assertOrdered(t: import('ava').ExecutionContext, all: string[][], sent: string[]) {
  t.is(sent.length, all.flat().length);
  t.deepEqual([...sent].sort(), all.flat().sort());
  for (const s of all)
    t.deepEqual(
      sent.filter((x) => x.startsWith(`${s[0]!.split(':')[0]}:`)),
      s,
    );
}

test('open loop: every item once, in order per stream, never two in flight for one stream', async (t) => {
  const all = streams(5, 4);
  const r = recorder();
  let seed = 7;
  const random = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647;
  };
  const result = await openLoop(all, 2000, r.send, random);
  assertOrdered(t, all, r.sent);
  t.is(r.overlap(), 0);
  t.is(result.latencies.length, 20);
  t.true(result.latencies.every((l, i) => i === 0 || l >= result.latencies[i - 1]!));
});

test('open loop: streams start through the run, so first requests are not all sent first', async (t) => {
  const all = streams(40, 4);
  const order: string[] = [];
  let seed = 11;
  const random = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647;
  };
  await openLoop(
    all,
    500,
    async (item) => {
      order.push(item);
    },
    random,
  );
  const firstsAmongFirst40 = order.slice(0, 40).filter((item) => item.endsWith(':0')).length;
  // First requests are a quarter of all; sent first-come (every stream started at once) they would be all 40.
  t.true(firstsAmongFirst40 < 25, `${firstsAmongFirst40} of the first 40 requests were first requests`);
  t.true(firstsAmongFirst40 > 0);
});

test('open loop: a failed send fails the run', async (t) => {
  await t.throwsAsync(
    openLoop([['a'], ['b']], 1000, async (x) => {
      if (x === 'b') throw new Error('503');
    }),
    { message: '503' },
  );
});

test('closed loop: every item once, in order per stream', async (t) => {
  const all = streams(6, 3);
  const r = recorder();
  await closedLoop(all, 3, r.send);
  assertOrdered(t, all, r.sent);
  t.is(r.overlap(), 0);
  t.is(pct([1, 2, 3, 4], 0.5), 3);
});

test("the open loop's reference: p99 of an ideal M/M/1 queue, ln(100) / (capacity - rate)", (t) => {
  t.is(mm1P99(30, 60), 154, 'half of 60 events/s: 9.21 / 30 s');
  t.is(mm1P99(45, 60), 307);
  t.is(mm1P99(60, 60), Infinity, 'at or past capacity the queue grows without bound');
});
