// Platform pieces read lazily from globals (never at import time: safe under SSR and in Expo Go).
import type { RandomBytes } from './ids.js';
import type { FetchLike } from './http.js';

const g = globalThis as unknown as {
  fetch?: FetchLike;
  crypto?: { getRandomValues?: (a: Uint8Array) => Uint8Array };
};

export function globalFetch(): FetchLike {
  if (typeof g.fetch !== 'function') throw new TypeError('svc: no fetch');
  return (url, init) => g.fetch!(url, init);
}

/** crypto.getRandomValues where present; otherwise Math.random (ids only need uniqueness, not secrecy). */
export const globalRandomBytes: RandomBytes = (length) => {
  const bytes = new Uint8Array(length);
  if (typeof g.crypto?.getRandomValues === 'function') return g.crypto.getRandomValues(bytes);
  for (let i = 0; i < length; i += 1) bytes[i] = Math.floor(Math.random() * 256);
  return bytes;
};

export function timezone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}
