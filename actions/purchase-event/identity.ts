// What is kept of an event the database refused (or that could not be applied and whose data the database
// refuses too): its identity, its unique keys and who it concerns, cleaned of what text columns cannot hold.
import type { PurchaseEvent } from '../../lib/purchase-event.js';

export function identityOnly(e: PurchaseEvent): PurchaseEvent {
  const clean = (v: string | null) => (v === null ? null : v.split(String.fromCharCode(0)).join(''));
  return {
    ...e,
    providerEventId: clean(e.providerEventId),
    type: clean(e.type) ?? 'UNKNOWN',
    appUserId: clean(e.appUserId),
    originalAppUserId: null,
    aliases: [],
    transferredFrom: [],
    transferredTo: [],
    productId: null,
    newProductId: null,
    periodType: null,
    store: null,
    transactionId: clean(e.transactionId),
    originalTransactionId: clean(e.originalTransactionId),
    priceUsd: null,
    priceInPurchasedCurrency: null,
    currency: null,
    takehomePercentage: null,
    cancelReason: null,
    isTrialConversion: null,
    referralCode: null,
    subscriberAttributes: {},
    raw: {},
    purchasedAtMs: null,
    expirationAtMs: null,
  };
}
