// A creator's store offer code on a purchase (issue 38, ../shared/CONTRACT.md "Creator offer codes"), pure rules: what
// a purchase carries that can name a creator without a click (its offer signal), the values to look up for it, and
// which offer code it matches. One rule for every path: the app's report (/sdk/purchase), App Store and Play
// notifications and the subscription provider's webhooks all put the same signal on the event (lib/purchase-event.ts).

/** One Play line item's offer (subscriptionsv2 `lineItems[].offerDetails`, with the line item's product). */
export interface PlayOfferLine {
  offerId: string | null;
  productId: string | null;
  basePlanId: string | null;
  tags: string[];
}

/**
 * What a purchase carries. `ios`: the App Store transaction's `offerIdentifier` when its `offerType` is 3 (an offer
 * code; the offer's reference name). `android` with `lines`: every Play line item's offer. `provider`: the
 * subscription provider's `offer_code`, matched against the values of the platform of the event's store.
 */
export type OfferSignal =
  | { kind: 'ios'; referenceName: string }
  | { kind: 'android'; lines: PlayOfferLine[] }
  | { kind: 'provider'; platform: 'ios' | 'android'; code: string };

/** An active offer code of the app (db/offer-code-matches.ts reads them). */
export interface OfferCodeCandidate {
  id: string;
  platform: 'ios' | 'android';
  match: 'reference_name' | 'offer_id' | 'offer_tag';
  value: string;
  productId: string | null;
  basePlanId: string | null;
  creatorCodeId: string;
}

export type OfferMatch<C extends OfferCodeCandidate = OfferCodeCandidate> =
  | { kind: 'none' }
  | { kind: 'match'; offerCode: C }
  /** The purchase's offers name two creators (or two memberships): attributed to none. */
  | { kind: 'conflict'; offerCodes: C[] };

/** App Store `offerType` of an offer code redemption. */
const APPLE_OFFER_CODE = 3;

/** The App Store transaction's offer signal: only an offer code (offerType 3) with its reference name. */
export function appleOfferSignal(tx: { offerType?: number; offerIdentifier?: string }): OfferSignal | undefined {
  if (tx.offerType !== APPLE_OFFER_CODE || typeof tx.offerIdentifier !== 'string' || tx.offerIdentifier === '') return undefined;
  return { kind: 'ios', referenceName: tx.offerIdentifier };
}

/** What we read of a subscriptionsv2 line item's offer. */
interface PlayLineItem {
  productId?: string | null;
  offerDetails?: { offerId?: string | null; basePlanId?: string | null; offerTags?: (string | null)[] | null } | null;
}

/** Every line item's offer (not only the first's); undefined when none carries an offer id or a tag. */
export function playOfferSignal(lineItems: readonly PlayLineItem[] | null | undefined): OfferSignal | undefined {
  const lines: PlayOfferLine[] = [];
  for (const item of lineItems ?? []) {
    const d = item.offerDetails;
    const tags = (d?.offerTags ?? []).filter((t): t is string => typeof t === 'string' && t !== '');
    if (!d?.offerId && tags.length === 0) continue;
    lines.push({ offerId: d?.offerId || null, productId: item.productId ?? null, basePlanId: d?.basePlanId ?? null, tags });
  }
  return lines.length > 0 ? { kind: 'android', lines } : undefined;
}

/** The provider's `offer_code`, by the event's store: App Store events match `ios` values, Play events `android` ones. */
export function providerOfferSignal(offerCode: string | null, store: string | null): OfferSignal | undefined {
  if (!offerCode) return undefined;
  const platform = store === 'APP_STORE' ? 'ios' : store === 'PLAY_STORE' ? 'android' : undefined;
  return platform ? { kind: 'provider', platform, code: offerCode } : undefined;
}

/** The platform and values to look up for a signal (an index lookup on offer_codes' unique value). */
export function offerLookup(signal: OfferSignal): { platform: 'ios' | 'android'; values: string[] } {
  switch (signal.kind) {
    case 'ios':
      return { platform: 'ios', values: [signal.referenceName] };
    case 'provider':
      return { platform: signal.platform, values: [signal.code] };
    case 'android': {
      const values = signal.lines.flatMap((l) => [...(l.offerId ? [l.offerId] : []), ...l.tags]);
      return { platform: 'android', values: [...new Set(values)] };
    }
  }
}

/** Whether a candidate is named by the signal (an offer id only with its product and base plan). */
function names(signal: OfferSignal, c: OfferCodeCandidate): boolean {
  switch (signal.kind) {
    case 'ios':
      return c.platform === 'ios' && c.value === signal.referenceName;
    case 'provider':
      // The provider sends a bare code: any value of the platform (reference name, offer id or tag) it equals.
      return c.platform === signal.platform && c.value === signal.code;
    case 'android':
      return (
        c.platform === 'android' &&
        signal.lines.some((l) =>
          c.match === 'offer_tag'
            ? l.tags.includes(c.value)
            : c.match === 'offer_id' && l.offerId === c.value && l.productId === c.productId && l.basePlanId === c.basePlanId,
        )
      );
  }
}

/**
 * Which active offer code the purchase redeemed: the candidates the signal names, one membership (creator code) at
 * most. Two memberships (a Play tag of one creator beside a tag or offer id of another, on one line item or two) is a
 * conflict: nobody is attributed, as a guess could pay the wrong creator.
 */
export function matchOfferCode<C extends OfferCodeCandidate>(signal: OfferSignal, candidates: readonly C[]): OfferMatch<C> {
  const named = candidates.filter((c) => names(signal, c));
  if (named.length === 0) return { kind: 'none' };
  const memberships = new Set(named.map((c) => c.creatorCodeId));
  return memberships.size === 1 ? { kind: 'match', offerCode: named[0]! } : { kind: 'conflict', offerCodes: named };
}

/**
 * Whether the signal on a renewal (an existing conversion) says the offer was redeemed in this very period. Apple
 * marks the transaction that redeemed it (and later periods carry no offer type), so an organic subscription that
 * redeems a creator's offer is attributed from that transaction on. Play repeats a subscription's offer on every
 * line item read for as long as it lasts, so a Play offer binds only at the conversion's first transaction.
 */
export function redeemedInThisPeriod(signal: OfferSignal): boolean {
  return signal.kind === 'ios' || (signal.kind === 'provider' && signal.platform === 'ios');
}
