// The store identity of a reported purchase, the key of the sent-set (rule 8) and of the outbox: iOS the
// transaction id inside the signed transaction (each renewal is its own transaction), Android the purchase token
// (one-time products: with the product id). Reading the JWS payload needs no verification: the server verifies. Without atob the
// store id is the SHA-256 of the whole JWS, still stable across retries of one report.

import type { PurchaseReport } from './types.js';
import { sha256Hex } from './event-key.js';

declare const atob: ((data: string) => string) | undefined;

/** base64url to a binary string; atob exists in browsers, Hermes (React Native 0.74+) and Node 16+. */
function base64UrlDecode(segment: string): string {
  if (typeof atob !== 'function') throw new Error('no atob');
  const b64 = segment.replace(/-/g, '+').replace(/_/g, '/');
  return atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
}

function appleTransactionId(jws: string): string | null {
  try {
    const payload = JSON.parse(base64UrlDecode(jws.split('.')[1] ?? '')) as { transactionId?: unknown };
    return typeof payload.transactionId === 'string' || typeof payload.transactionId === 'number' ? String(payload.transactionId) : null;
  } catch {
    return null;
  }
}

export function purchaseStoreId(p: PurchaseReport): string {
  if (p.platform === 'ios') {
    const jws = p.signedTransaction ?? '';
    return `ios:${appleTransactionId(jws) ?? sha256Hex(jws)}`;
  }
  return `android:${p.productId ? `${p.productId}:` : ''}${p.purchaseToken ?? ''}`;
}
