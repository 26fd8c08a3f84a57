// SHA-256 (FIPS 180-4), synchronous and dependency-free. Why not Web Crypto: it is async, needs a secure context
// and is missing in React Native's Hermes. Why not @noble/hashes: it alone is 2.4 KB min+gz, 40% of the web
// bundle's 6 KB budget; this is under 0.6 KB. It hashes dedup keys and account tokens, never secrets. Checked
// against node:crypto and the FIPS vectors in test/unit/sdk-event-key.test.ts; test/unit/sdk-sha256-constants.test.ts
// proves the computed constants do not depend on the last bits of an engine's Math.cbrt.

let K: number[] | undefined;
const H0: number[] = [];

/** The round constants and initial hash: the first 32 fraction bits of the cube (square) roots of the first primes. */
function constants(): number[] {
  const frac = (x: number) => ((x - Math.floor(x)) * 0x100000000) | 0;
  const k: number[] = [];
  for (let n = 2; k.length < 64; n += 1) {
    let prime = true;
    for (let d = 2; d * d <= n; d += 1) if (n % d === 0) prime = false;
    if (!prime) continue;
    if (H0.length < 8) H0.push(frac(Math.sqrt(n)));
    k.push(frac(Math.cbrt(n)));
  }
  return k;
}

const ror = (x: number, n: number) => (x >>> n) | (x << (32 - n));

export function sha256(data: Uint8Array): Uint8Array {
  const k = (K ??= constants());
  const length = data.length;
  const words = Math.ceil((length + 9) / 64) * 16;
  const m = new Uint32Array(words);
  for (let i = 0; i < length; i += 1) m[i >> 2]! |= data[i]! << (24 - (i % 4) * 8);
  m[length >> 2]! |= 0x80 << (24 - (length % 4) * 8);
  m[words - 2] = Math.floor(length / 0x20000000);
  m[words - 1] = length * 8;
  const h = H0.slice();
  const w: number[] = [];
  for (let j = 0; j < words; j += 16) {
    let [a, b, c, d, e, f, g, hh] = h as [number, number, number, number, number, number, number, number];
    for (let i = 0; i < 64; i += 1) {
      if (i < 16) w[i] = m[j + i]! | 0;
      else {
        const x = w[i - 15]!;
        const y = w[i - 2]!;
        w[i] = (w[i - 16]! + (ror(x, 7) ^ ror(x, 18) ^ (x >>> 3)) + w[i - 7]! + (ror(y, 17) ^ ror(y, 19) ^ (y >>> 10))) | 0;
      }
      const t1 = (hh + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + k[i]! + w[i]!) | 0;
      const t2 = ((ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    [a, b, c, d, e, f, g, hh].forEach((v, i) => {
      h[i] = (h[i]! + v) | 0;
    });
  }
  const out = new Uint8Array(32);
  h.forEach((v, i) => {
    for (let b = 0; b < 4; b += 1) out[i * 4 + b] = (v >>> (24 - b * 8)) & 255;
  });
  return out;
}
