// The offer-code rule (lib/offer-code-match.ts), pure: what each store's purchase carries (App Store offerType 3 and
// its reference name; every Play line item's offer id and tags; the provider's offer_code by its store), which offer
// code it matches (an offer id only with its product and base plan; two memberships are a conflict), which offers
// attribute a renewal, and OFFER_REDEEMED mapped by subtype with the same idempotency keys as the transaction's report.
import test from 'ava';
import { appleNotificationPlan } from '../../lib/apple-notification.js';
import {
  appleOfferSignal,
  matchOfferCode,
  offerLookup,
  playOfferSignal,
  providerOfferSignal,
  redeemedInThisPeriod,
  type OfferCodeCandidate,
  type OfferSignal,
} from '../../lib/offer-code-match.js';
import { idempotencyKey, normalizeSubproviderEvent } from '../../lib/purchase-event.js';
import { appleTransactionEvents, googleSubscriptionEvents, type AppleTransaction } from '../../lib/store-purchase.js';

const code = (id: string, over: Partial<OfferCodeCandidate>): OfferCodeCandidate => ({
  id,
  platform: 'android',
  match: 'offer_tag',
  value: id,
  productId: null,
  basePlanId: null,
  creatorCodeId: `member-${id}`,
  ...over,
});
const CODES = [
  code('MAYA', { platform: 'ios', match: 'reference_name', creatorCodeId: 'maya' }),
  code('maya-offer', { match: 'offer_id', productId: 'pro', basePlanId: 'monthly', creatorCodeId: 'maya' }),
  code('maya-tag', { creatorCodeId: 'maya' }),
  code('leo-tag', { creatorCodeId: 'leo' }),
];
const line = (over: Partial<{ offerId: string | null; productId: string; basePlanId: string; tags: string[] }>) => ({
  offerId: null,
  productId: 'pro',
  basePlanId: 'monthly',
  tags: [],
  ...over,
});

/** A production App Store transaction redeemed with the offer code whose reference name is MAYA. */
const offerTransaction = (over: Partial<AppleTransaction>): AppleTransaction => ({
  productId: 'pro',
  environment: 'Production',
  purchaseDate: 1_700_000_000_000,
  price: 9990,
  offerType: 3,
  offerIdentifier: 'MAYA',
  ...over,
});

const MATCHES: [string, OfferSignal, string][] = [
  ['ios reference name', { kind: 'ios', referenceName: 'MAYA' }, 'match:MAYA'],
  ['ios name never matches android values', { kind: 'ios', referenceName: 'maya-tag' }, 'none'],
  ['play offer id with its product and base plan', { kind: 'android', lines: [line({ offerId: 'maya-offer' })] }, 'match:maya-offer'],
  ['play offer id of another base plan', { kind: 'android', lines: [line({ offerId: 'maya-offer', basePlanId: 'yearly' })] }, 'none'],
  ['play tag on the second line item', { kind: 'android', lines: [line({ tags: ['x'] }), line({ tags: ['maya-tag'] })] }, 'match:maya-tag'],
  ['two codes of one membership', { kind: 'android', lines: [line({ offerId: 'maya-offer', tags: ['maya-tag'] })] }, 'match:maya-offer'],
  [
    'tags of two creators on one line item',
    { kind: 'android', lines: [line({ tags: ['maya-tag', 'leo-tag'] })] },
    'conflict:maya-tag,leo-tag',
  ],
  [
    'two creators on two line items',
    { kind: 'android', lines: [line({ tags: ['leo-tag'] }), line({ offerId: 'maya-offer' })] },
    'conflict:maya-offer,leo-tag',
  ],
  ['provider ios code', { kind: 'provider', platform: 'ios', code: 'MAYA' }, 'match:MAYA'],
  ['provider play code (any android value)', { kind: 'provider', platform: 'android', code: 'maya-offer' }, 'match:maya-offer'],
  ['provider code of the other store', { kind: 'provider', platform: 'ios', code: 'maya-tag' }, 'none'],
  ['unknown value', { kind: 'ios', referenceName: 'NOBODY' }, 'none'],
];

for (const [name, signal, expected] of MATCHES) {
  test(`match: ${name}`, (t) => {
    const m = matchOfferCode(signal, CODES);
    const got =
      m.kind === 'none' ? 'none' : m.kind === 'match' ? `match:${m.offerCode.id}` : `conflict:${m.offerCodes.map((c) => c.id).join(',')}`;
    t.is(got, expected);
    // The lookup asks for every value the rule can match.
    if (m.kind !== 'none')
      for (const c of m.kind === 'match' ? [m.offerCode] : m.offerCodes) t.true(offerLookup(signal).values.includes(c.value));
  });
}

test('signals: Apple offerType 3 only; every Play line item; the provider by store', (t) => {
  t.deepEqual(appleOfferSignal({ offerType: 3, offerIdentifier: 'MAYA' }), { kind: 'ios', referenceName: 'MAYA' });
  t.is(appleOfferSignal({ offerType: 1, offerIdentifier: 'intro' }), undefined, 'an introductory offer names no creator');
  t.is(appleOfferSignal({ offerType: 2, offerIdentifier: 'promo' }), undefined, 'a promotional offer names no creator');
  t.is(appleOfferSignal({ offerType: 3 }), undefined);
  t.deepEqual(
    playOfferSignal([
      { productId: 'pro', offerDetails: { basePlanId: 'monthly', offerTags: [] } },
      { productId: 'addon', offerDetails: { basePlanId: 'm', offerId: 'o2', offerTags: ['t', null] } },
    ]),
    { kind: 'android', lines: [{ offerId: 'o2', productId: 'addon', basePlanId: 'm', tags: ['t'] }] },
  );
  t.is(playOfferSignal([{ productId: 'pro' }]), undefined);
  t.deepEqual(providerOfferSignal('X', 'PLAY_STORE'), { kind: 'provider', platform: 'android', code: 'X' });
  t.is(providerOfferSignal('X', 'STRIPE'), undefined);
  t.is(providerOfferSignal(null, 'APP_STORE'), undefined);
  t.true(redeemedInThisPeriod({ kind: 'ios', referenceName: 'MAYA' }));
  t.false(redeemedInThisPeriod({ kind: 'android', lines: [] }), 'Play repeats the offer on every period: binds at the first only');
});

test('events carry the signal: App Store transaction, subscriptionsv2 (not only its first line item), provider body', (t) => {
  const once = offerTransaction({ transactionId: '1', originalTransactionId: '1', type: 'Non-Consumable' });
  t.deepEqual(appleTransactionEvents(once, { appUserId: null, referralCode: null })[0]!.offer, { kind: 'ios', referenceName: 'MAYA' });
  const sub = googleSubscriptionEvents(
    {
      subscriptionState: 'SUBSCRIPTION_STATE_ACTIVE',
      lineItems: [
        { productId: 'pro', latestSuccessfulOrderId: 'GPA.1', autoRenewingPlan: { recurringPrice: { currencyCode: 'USD', units: '9' } } },
        { productId: 'addon', offerDetails: { offerId: 'o', basePlanId: 'b', offerTags: [] } },
      ],
    },
    'token',
    0,
    { appUserId: null, referralCode: null },
  );
  t.true(sub.ok);
  if (sub.ok)
    t.deepEqual(sub.events[0]!.offer, { kind: 'android', lines: [{ offerId: 'o', productId: 'addon', basePlanId: 'b', tags: [] }] });
  const body = { event: { type: 'INITIAL_PURCHASE', store: 'app_store', offer_code: 'MAYA' } };
  t.deepEqual(normalizeSubproviderEvent(body, 0).offer, { kind: 'provider', platform: 'ios', code: 'MAYA' });
  t.false('offer' in normalizeSubproviderEvent({ event: { type: 'RENEWAL', store: 'APP_STORE' } }, 0), 'absent without one');
});

test('OFFER_REDEEMED by subtype: the transaction purchase keyed like SUBSCRIBED and the report; DOWNGRADE a product change', (t) => {
  const tx = offerTransaction({ transactionId: '20', originalTransactionId: '10', type: 'Auto-Renewable Subscription' });
  const keys = (type: string, subtype?: string) => {
    const plan = appleNotificationPlan({ notificationType: type, subtype, notificationUUID: 'u', signedDate: 1_750_000_000_000 }, tx, {});
    return plan.kind === 'events' ? plan.events.map((e) => idempotencyKey('app', e)) : [plan.kind];
  };
  const reported = appleTransactionEvents(tx, { appUserId: null, referralCode: null }).map((e) => idempotencyKey('app', e));
  for (const subtype of ['INITIAL_BUY', 'RESUBSCRIBE', 'UPGRADE', undefined])
    t.deepEqual(keys('OFFER_REDEEMED', subtype), reported, String(subtype));
  t.deepEqual(keys('DID_RENEW'), reported);
  t.deepEqual(keys('OFFER_REDEEMED', 'DOWNGRADE'), ['app:PRODUCT_CHANGE:20:1750000000000']);
});
