// The offer-code rules (lib/offer-codes.ts) and the SDK-less readiness (lib/sdk-less-attribution.ts) as labelled
// rows: what each store would accept as a value, which fields a refusal names, the redemption links, and when an app
// can attribute purchases with no client code.
import test from 'ava';
import { nextAction } from '../../api/agent/next-action.js';
import '../../api/agent/endpoints.js';
import { ValidationError } from '../../errors/http-errors.js';
import type { IntegrationFacts } from '../../lib/integration-checklist.js';
import { offerCodeFields, offerRedeemUrl, type OfferCodeInput } from '../../lib/offer-codes.js';
import { evaluateSdkLess } from '../../lib/sdk-less-attribution.js';
import { STORE_VERIFIER } from '../../lib/validation-providers.js';
import { blankFacts, FACTS_AT } from '../helpers/integration-facts.js';

/** The fields a refusal names, or 'ok' with the match when accepted. */
function outcome(input: OfferCodeInput): string {
  try {
    return `ok ${offerCodeFields(input).match}`;
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    return err.problems.map((p) => p.loc.join('.')).join(',');
  }
}

const accepted: [string, OfferCodeInput, string][] = [
  ['ios reference name with spaces inside', { platform: 'ios', value: 'Maya spring 30' }, 'ok reference_name'],
  ['ios reference name of 64 characters', { platform: 'ios', value: 'x'.repeat(64) }, 'ok reference_name'],
  ['ios with a custom code', { platform: 'ios', value: 'maya', custom_code: 'MAYA30' }, 'ok reference_name'],
  ['ios with empty optional fields (a form)', { platform: 'ios', value: 'maya', custom_code: '', product_id: '' }, 'ok reference_name'],
  ['android offer tag', { platform: 'android', value: 'creator-maya' }, 'ok offer_tag'],
  ['android offer tag of 20', { platform: 'android', value: 'a'.repeat(20) }, 'ok offer_tag'],
  [
    'android offer id with product and base plan',
    { platform: 'android', value: 'maya-30', product_id: 'premium.yearly_v2', base_plan_id: 'yearly' },
    'ok offer_id',
  ],
  [
    'android offer id of 63 starting with a digit',
    { platform: 'android', value: `1${'a'.repeat(62)}`, product_id: 'p', base_plan_id: 'b' },
    'ok offer_id',
  ],
];
const refused: [string, OfferCodeInput, string][] = [
  ['unknown platform', { platform: 'web', value: 'x' }, 'body.platform'],
  ['ios reference name over 64', { platform: 'ios', value: 'x'.repeat(65) }, 'body.value'],
  ['ios leading space', { platform: 'ios', value: ' maya' }, 'body.value'],
  ['ios trailing space', { platform: 'ios', value: 'maya ' }, 'body.value'],
  ['ios control character', { platform: 'ios', value: 'ma\nya' }, 'body.value'],
  ['ios with Play fields', { platform: 'ios', value: 'maya', product_id: 'p', base_plan_id: 'b' }, 'body.product_id,body.base_plan_id'],
  ['custom code with a hyphen', { platform: 'ios', value: 'maya', custom_code: 'MAYA-30' }, 'body.custom_code'],
  ['custom code over 64', { platform: 'android', value: 'maya', custom_code: 'A'.repeat(65) }, 'body.custom_code'],
  ['android tag over 20', { platform: 'android', value: 'a'.repeat(21) }, 'body.value'],
  ['android tag in capitals', { platform: 'android', value: 'Maya' }, 'body.value'],
  ['android tag with underscore', { platform: 'android', value: 'maya_30' }, 'body.value'],
  ['android product without base plan', { platform: 'android', value: 'maya', product_id: 'p' }, 'body.base_plan_id'],
  ['android base plan without product', { platform: 'android', value: 'maya', base_plan_id: 'b' }, 'body.product_id'],
  ['android offer id starting with a hyphen', { platform: 'android', value: '-maya', product_id: 'p', base_plan_id: 'b' }, 'body.value'],
  ['android offer id over 63', { platform: 'android', value: 'a'.repeat(64), product_id: 'p', base_plan_id: 'b' }, 'body.value'],
  [
    'android product id with a hyphen',
    { platform: 'android', value: 'maya', product_id: 'pre-mium', base_plan_id: 'b' },
    'body.product_id',
  ],
  ['android product id over 40', { platform: 'android', value: 'maya', product_id: 'p'.repeat(41), base_plan_id: 'b' }, 'body.product_id'],
  ['android base plan with a period', { platform: 'android', value: 'maya', product_id: 'p', base_plan_id: 'b.1' }, 'body.base_plan_id'],
  [
    'every bad field at once',
    { platform: 'android', value: 'Bad', product_id: 'Bad', base_plan_id: 'Bad', custom_code: 'no way' },
    'body.product_id,body.base_plan_id,body.value,body.custom_code',
  ],
];
for (const [label, input, expected] of [...accepted, ...refused]) {
  test(`offer code input: ${label}`, (t) => t.is(outcome(input), expected));
}

test('the fields stored: custom code kept as typed, Play fields only for an offer id', (t) => {
  t.deepEqual(offerCodeFields({ platform: 'ios', value: 'maya', custom_code: 'Maya30' }), {
    platform: 'ios',
    match: 'reference_name',
    value: 'maya',
    customCode: 'Maya30',
    productId: null,
    basePlanId: null,
  });
  t.like(offerCodeFields({ platform: 'android', value: 'o1', product_id: 'p', base_plan_id: 'b' }), { productId: 'p', basePlanId: 'b' });
});

const links: [string, { platform: string; custom_code: string | null }, string | null, string | null][] = [
  [
    'ios with code and Apple id',
    { platform: 'ios', custom_code: 'MAYA30' },
    '1234567890',
    'https://apps.apple.com/redeem?ctx=offercodes&id=1234567890&code=MAYA30',
  ],
  ['ios without Apple id', { platform: 'ios', custom_code: 'MAYA30' }, null, null],
  ['ios without custom code', { platform: 'ios', custom_code: null }, '1234567890', null],
  ['android with code', { platform: 'android', custom_code: 'MAYA30' }, null, 'https://play.google.com/redeem?code=MAYA30'],
  ['android without code', { platform: 'android', custom_code: null }, '1', null],
];
for (const [label, code, appleId, url] of links) {
  test(`redemption link: ${label}`, (t) => t.is(offerRedeemUrl(code, appleId), url));
}

const AT = FACTS_AT;
const blank = blankFacts;
const iosDirect: IntegrationFacts = {
  ...blank,
  providers: { ios_validation_provider: STORE_VERIFIER.ios, android_validation_provider: null },
};
const both = { ios_validation_provider: STORE_VERIFIER.ios, android_validation_provider: STORE_VERIFIER.android };

const readiness: [string, IntegrationFacts, string[]][] = [
  ['nothing yet: both platforms count', blank, ['ios_store_notifications', 'android_store_notifications', 'active_offer_code']],
  ['provider webhook connected, no offer code', { ...blank, webhookConnectedAt: AT }, ['active_offer_code']],
  ['provider webhook connected and an offer code', { ...blank, webhookConnectedAt: AT, activeOfferCodePlatforms: ['ios'] }, []],
  [
    'ios store-direct alone: only ios counts, credentials not checked',
    { ...iosDirect, activeOfferCodePlatforms: ['ios'] },
    ['ios_store_notifications'],
  ],
  [
    'ios store-direct green but no notification received yet',
    { ...iosDirect, storeCredentials: { ios: 'ok' }, notificationsWired: { ios: false }, activeOfferCodePlatforms: ['ios'] },
    ['ios_store_notifications'],
  ],
  [
    'ios store-direct, notifications wired, offer code on ios',
    { ...iosDirect, storeCredentials: { ios: 'ok' }, notificationsWired: { ios: true }, activeOfferCodePlatforms: ['ios'] },
    [],
  ],
  [
    'the only offer code is on a platform not in use',
    { ...iosDirect, storeCredentials: { ios: 'ok' }, notificationsWired: { ios: true }, activeOfferCodePlatforms: ['android'] },
    ['active_offer_code'],
  ],
  [
    'both store-direct, android notifications missing',
    {
      ...blank,
      providers: both,
      storeCredentials: { ios: 'ok', android: 'ok' },
      notificationsWired: { ios: true },
      activeOfferCodePlatforms: ['ios'],
    },
    ['android_store_notifications'],
  ],
  [
    'the direct purchase webhook carries no offer: not enough',
    { ...blank, lastDirectPurchase: { at: AT, type: 'INITIAL_PURCHASE' }, activeOfferCodePlatforms: ['ios'] },
    ['ios_store_notifications', 'android_store_notifications'],
  ],
  [
    'a web-only app has no store platform',
    { ...blank, sdkInitializedAt: AT, sdkInitMeta: { web: { at: AT.toISOString() } } },
    ['store_platform', 'active_offer_code'],
  ],
];
for (const [label, facts, missing] of readiness) {
  test(`sdk_less_attribution: ${label}`, (t) => {
    const { status } = evaluateSdkLess(facts, nextAction);
    t.deepEqual(status, { ready: missing.length === 0, missing });
  });
}

test("the next action: offered while the app has no SDK or already an offer code, naming the first gap's tool", (t) => {
  const noSdk = evaluateSdkLess({ ...blank, webhookConnectedAt: AT }, nextAction).action;
  t.like(noSdk, { step: 'sdk_less_attribution', next_tool: 'svc_add_offer_code' });
  t.regex(noSdk!.call, /^POST \/api\/agent\/campaigns\/\{campaign_id\}\/affiliates\/\{creator_id\}\/offer-codes$/);
  t.regex(noSdk!.action, /one offer per creator/);
  const gaps = evaluateSdkLess(iosDirect, nextAction).action!;
  t.is(gaps.next_tool, 'svc_validate_store_credentials');
  t.regex(gaps.action, /App Store Server Notifications/);
  const sdkApp = { ...blank, sdkInitializedAt: AT, sdkInitMeta: { ios: { at: AT.toISOString() } } };
  t.is(evaluateSdkLess(sdkApp, nextAction).action, null, 'a live SDK app without offer codes is not nagged');
  t.truthy(evaluateSdkLess({ ...sdkApp, activeOfferCodePlatforms: ['ios'] }, nextAction).action, 'one that started on the path is');
  t.is(
    evaluateSdkLess({ ...blank, webhookConnectedAt: AT, activeOfferCodePlatforms: ['ios'] }, nextAction).action,
    null,
    'ready: nothing to do',
  );
});
