import test from 'ava';
import { SlidingWindowCounter } from '../../runtime/rate-counter.js';

test('at most `limit` requests in any window, wherever the window starts', (t) => {
  const c = new SlidingWindowCounter();
  const at = (ms: number) => c.tryHitSync('ip', 2, 1000, 10_000 + ms);
  t.true(at(0));
  t.true(at(900));
  t.false(at(950)); // third within 1 s
  t.false(at(999));
  t.true(at(1001)); // the first hit left the window
  t.false(at(1500)); // 900 and 1001 are still inside
  t.true(at(1901));
});

test('keys are counted separately', (t) => {
  const c = new SlidingWindowCounter();
  t.true(c.tryHitSync('a', 1, 1000, 0));
  t.false(c.tryHitSync('a', 1, 1000, 10));
  t.true(c.tryHitSync('b', 1, 1000, 10));
});
