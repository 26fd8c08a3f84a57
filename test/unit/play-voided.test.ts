// lib/play-voided.ts: the window each poll of Google's voided purchases asks for, and a voided order as the REFUND
// of its period (subscription) or purchase (one-time product), keyed so the poll and a later report agree.
import test from 'ava';
import { conversionKeyOf, idempotencyKey } from '../../lib/purchase-event.js';
import {
  isUsableEntry,
  VOIDED_LOOKBACK_MS,
  VOIDED_OVERLAP_MS,
  voidedRefundEvent,
  voidedWindow,
  type VoidedEntry,
} from '../../lib/play-voided.js';
import { googleProductEvents } from '../../lib/store-purchase.js';

const NOW = 1_800_000_000_000;
const entry: VoidedEntry = {
  purchaseToken: 'tok',
  orderId: 'GPA.1-2-3..4',
  voidedTimeMillis: String(NOW - 1000),
  purchaseTimeMillis: String(NOW - 86_400_000),
  voidedSource: 0,
  voidedReason: 7,
};

test('the window: 30 days back (less a margin) at first, then from the previous end less the overlap, never older', (t) => {
  t.deepEqual(voidedWindow(null, NOW), { startMs: NOW - VOIDED_LOOKBACK_MS, endMs: NOW });
  t.true(VOIDED_LOOKBACK_MS < 30 * 86_400_000);
  t.deepEqual(voidedWindow(NOW - 600_000, NOW), { startMs: NOW - 600_000 - VOIDED_OVERLAP_MS, endMs: NOW });
  t.deepEqual(
    voidedWindow(NOW - 90 * 86_400_000, NOW),
    { startMs: NOW - VOIDED_LOOKBACK_MS, endMs: NOW },
    'a cursor older than Google allows',
  );
  t.deepEqual(
    voidedWindow(NOW + 10 * VOIDED_OVERLAP_MS, NOW),
    { startMs: NOW, endMs: NOW },
    'a cursor in the future (clock skew) asks for nothing ahead',
  );
});

test('a voided subscription order is the REFUND of that period, keyed at the void time on the purchase token', (t) => {
  const e = voidedRefundEvent(entry, { kind: 'subscription', environment: 'PRODUCTION' });
  t.like(e, {
    type: 'REFUND',
    source: 'store_direct',
    transactionId: 'GPA.1-2-3..4',
    originalTransactionId: 'tok',
    eventTimestampMs: NOW - 1000,
    environment: 'PRODUCTION',
    store: 'PLAY_STORE',
    priceUsd: null,
  });
  t.is(conversionKeyOf(e), 'tok');
  t.like(e.raw, { play_voided_purchase: { voided_reason_name: 'chargeback', voided_source_name: 'user' } });
  t.is(
    idempotencyKey('app', e),
    idempotencyKey('app', voidedRefundEvent({ ...entry, voidedReason: 1 }, { kind: 'subscription', environment: 'PRODUCTION' })),
    'seen again: the same event',
  );
});

test('a voided one-time order is keyed as the later products.get report of the cancelled order keys it', (t) => {
  const oneTime = { ...entry, orderId: 'GPA.9-9-9' };
  const e = voidedRefundEvent(oneTime, { kind: 'one_time', environment: 'SANDBOX', purchaseTimestampMs: NOW - 86_400_000 });
  t.like(e, { transactionId: 'GPA.9-9-9', originalTransactionId: 'GPA.9-9-9', eventTimestampMs: NOW - 86_400_000, environment: 'SANDBOX' });
  const reported = googleProductEvents(
    { purchaseState: 1, orderId: 'GPA.9-9-9', purchaseTimeMillis: String(NOW - 86_400_000), productId: 'coins' },
    'tok2',
    { appUserId: null, referralCode: null, productId: 'coins', price: 1, currency: 'USD' },
    true,
  );
  t.true(reported.ok);
  if (reported.ok) t.is(idempotencyKey('app', reported.events[0]!), idempotencyKey('app', e));
});

test('entries without an order id, a token or a numeric void time are not usable', (t) => {
  t.true(isUsableEntry(entry));
  t.false(isUsableEntry({ ...entry, orderId: null }));
  t.false(isUsableEntry({ ...entry, purchaseToken: '' }));
  t.false(isUsableEntry({ ...entry, voidedTimeMillis: 'soon' }));
});
