// The SDK's SHA-256 computes its 72 constants (the fraction bits of square and cube roots of the first primes)
// instead of shipping them, to stay in the web bundle's size budget. Math.sqrt is correctly rounded everywhere;
// Math.cbrt is only "implementation-approximated" (ECMA-262), so the result must not depend on its last bits. This
// proves it: every constant's exact value lies far from the integer boundary its truncation could cross, so any
// engine whose cbrt is within a few hundred ulps (Hermes, JavaScriptCore, V8 all are within one) gets the same bits.
import test from 'ava';

function primes(n: number): number[] {
  const out: number[] = [];
  for (let k = 2; out.length < n; k += 1) if (out.every((p) => k % p !== 0)) out.push(k);
  return out;
}

/** Distance (in units of 2^-32) of the root's scaled fraction from the nearest integer. */
function margin(root: number): number {
  const scaled = (root - Math.floor(root)) * 2 ** 32;
  const rest = scaled - Math.floor(scaled);
  return Math.min(rest, 1 - rest);
}

test('every computed SHA-256 constant is far from a truncation boundary (engine-independent)', (t) => {
  const ps = primes(64);
  // A 1-ulp error of cbrt(p) for p < 312 (root < 7) is 2^-50, i.e. 2^-18 in units of 2^-32: allow 256 ulps.
  const allowed = 256 * 2 ** -18;
  const tight = ps
    .map((p) => ({ p, cube: margin(Math.cbrt(p)), square: margin(Math.sqrt(p)) }))
    .filter((m) => m.cube < allowed || (ps.indexOf(m.p) < 8 && m.square < allowed));
  t.deepEqual(tight, []);
});
