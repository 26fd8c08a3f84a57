// A creator's store offer code (issue 38, CONTRACT.md "Creator offer codes"): the input rules, in words, and the
// redemption link. Pure. The stores' own rules decide what a value may be, so a value the store would refuse (and
// that therefore could never arrive in a purchase) is refused here with 422 naming the field:
// * ios: `value` is the App Store offer's reference name, which Apple sends as `offerIdentifier` and is matched as
//   typed (so never trimmed here: a leading or trailing space is refused, not removed). App Store Connect takes 1 to 64
//   characters. Apple sends only the reference name, never the custom code, so each creator needs an offer of their
//   own. `custom_code` is what people type (Apple: letters and digits); it only builds the redemption link.
// * android: with `product_id` and `base_plan_id` the value is a Play offer id (`match` offer_id: a number or
//   lowercase letter first, then lowercase letters, digits and hyphens, at most 63; base plan ids the same; subscription
//   product ids a number or lowercase letter first, then lowercase letters, digits, underscores and periods, at most
//   40); without them it is an offer tag declared exclusive to this creator (`match` offer_tag: lowercase letters,
//   digits and hyphens, at most 20, Play's RFC-1034 tag rule). Giving one of product and base plan without the other
//   is refused, naming the missing one.
// The custom code's length cap (64) is ours: Apple's pages found say letters and digits and give no length.
import { ValidationError, type FieldProblem } from '../errors/http-errors.js';

export const OFFER_PLATFORMS = ['ios', 'android'] as const;
export type OfferPlatform = (typeof OFFER_PLATFORMS)[number];
export type OfferMatch = 'reference_name' | 'offer_id' | 'offer_tag';

export interface OfferCodeInput {
  platform: string;
  value: string;
  custom_code?: string | null;
  product_id?: string | null;
  base_plan_id?: string | null;
}

export interface OfferCodeFields {
  platform: OfferPlatform;
  match: OfferMatch;
  value: string;
  customCode: string | null;
  productId: string | null;
  basePlanId: string | null;
}

const REFERENCE_NAME_MAX = 64;
const CUSTOM_CODE = /^[A-Za-z0-9]{1,64}$/;
const PLAY_ID = /^[a-z0-9][a-z0-9-]{0,62}$/;
const PLAY_PRODUCT_ID = /^[a-z0-9][a-z0-9_.]{0,39}$/;
const PLAY_TAG = /^[a-z0-9-]{1,20}$/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Each rule in the words shown beside the field (agent 422s and the dashboard's form say the same). */
export const OFFER_CODE_RULES = {
  reference_name: "The App Store offer's reference name exactly as in App Store Connect: 1 to 64 characters, no leading or trailing space.",
  custom_code: 'The code people type: 1 to 64 letters and digits, nothing else.',
  offer_id: 'The Play offer id: a lowercase letter or digit first, then lowercase letters, digits and hyphens, at most 63.',
  offer_tag: 'The Play offer tag declared for this creator alone: lowercase letters, digits and hyphens, at most 20.',
  product_id: 'The Play subscription product id: a lowercase letter or digit first, then lowercase letters, digits, _ and ., at most 40.',
  base_plan_id: 'The Play base plan id: a lowercase letter or digit first, then lowercase letters, digits and hyphens, at most 63.',
  ios_no_play_fields: 'Only for android: an App Store offer is named by its reference name alone.',
  both_play_fields: 'Give both the product id and the base plan id (an offer id), or neither (an offer tag).',
} as const;

const problem = (field: string, msg: string): FieldProblem => ({ loc: ['body', field], msg, type: 'value_error' });

/** null or an absent field is "not given"; an empty string too (a form's empty field). */
const given = (v: string | null | undefined): v is string => typeof v === 'string' && v !== '';

function referenceNameProblem(value: string): string | null {
  if (value.length < 1 || value.length > REFERENCE_NAME_MAX || value.trim() !== value || CONTROL.test(value)) {
    return OFFER_CODE_RULES.reference_name;
  }
  return null;
}

function iosFields(input: OfferCodeInput, problems: FieldProblem[]): Omit<OfferCodeFields, 'customCode'> {
  const bad = referenceNameProblem(input.value);
  if (bad) problems.push(problem('value', bad));
  for (const f of ['product_id', 'base_plan_id'] as const) {
    if (given(input[f])) problems.push(problem(f, OFFER_CODE_RULES.ios_no_play_fields));
  }
  return { platform: 'ios', match: 'reference_name', value: input.value, productId: null, basePlanId: null };
}

function androidFields(input: OfferCodeInput, problems: FieldProblem[]): Omit<OfferCodeFields, 'customCode'> {
  const product = given(input.product_id) ? input.product_id : null;
  const plan = given(input.base_plan_id) ? input.base_plan_id : null;
  if (product === null && plan === null) {
    if (!PLAY_TAG.test(input.value)) problems.push(problem('value', OFFER_CODE_RULES.offer_tag));
    return { platform: 'android', match: 'offer_tag', value: input.value, productId: null, basePlanId: null };
  }
  if (product === null) problems.push(problem('product_id', OFFER_CODE_RULES.both_play_fields));
  else if (!PLAY_PRODUCT_ID.test(product)) problems.push(problem('product_id', OFFER_CODE_RULES.product_id));
  if (plan === null) problems.push(problem('base_plan_id', OFFER_CODE_RULES.both_play_fields));
  else if (!PLAY_ID.test(plan)) problems.push(problem('base_plan_id', OFFER_CODE_RULES.base_plan_id));
  if (!PLAY_ID.test(input.value)) problems.push(problem('value', OFFER_CODE_RULES.offer_id));
  return { platform: 'android', match: 'offer_id', value: input.value, productId: product, basePlanId: plan };
}

/** The offer code to store, or a ValidationError (422) listing every field that breaks a store's rule. */
export function offerCodeFields(input: OfferCodeInput): OfferCodeFields {
  if (!(OFFER_PLATFORMS as readonly string[]).includes(input.platform)) {
    throw new ValidationError([problem('platform', 'Use ios or android.')]);
  }
  const problems: FieldProblem[] = [];
  const fields = input.platform === 'ios' ? iosFields(input, problems) : androidFields(input, problems);
  const customCode = given(input.custom_code) ? input.custom_code : null;
  if (customCode !== null && !CUSTOM_CODE.test(customCode)) problems.push(problem('custom_code', OFFER_CODE_RULES.custom_code));
  if (problems.length > 0) throw new ValidationError(problems);
  return { ...fields, customCode };
}

/**
 * Where a person redeems the creator's custom code: Apple's redemption page needs the app's numeric Apple id, Play's
 * takes the code alone. null when there is no custom code, or no Apple id for an App Store one.
 */
export function offerRedeemUrl(code: { platform: string; custom_code: string | null }, appAppleId: string | null): string | null {
  if (!code.custom_code) return null;
  const typed = encodeURIComponent(code.custom_code);
  if (code.platform === 'ios') {
    return appAppleId ? `https://apps.apple.com/redeem?ctx=offercodes&id=${encodeURIComponent(appAppleId)}&code=${typed}` : null;
  }
  return code.platform === 'android' ? `https://play.google.com/redeem?code=${typed}` : null;
}

/** How the value is matched, in words (dashboard and portal). */
export const OFFER_MATCH_WORDS: Record<OfferMatch, string> = {
  reference_name: 'App Store offer (reference name)',
  offer_id: 'Play offer id',
  offer_tag: 'Play offer tag',
};
