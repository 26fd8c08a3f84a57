// JSON Schemas of the app and campaign fields an agent may write (and of a review decision), shared by create, patch
// and provision so one field has one rule (the same schemas validate requests and feed the OpenAPI document).
import { MAX_BONUS_RULES, MAX_BONUS_USD } from '../../lib/bonus-rules.js';
import { LOCALE_PATTERN } from '../../lib/i18n-freshness.js';

/** Required text: at least one non-blank character. */
const text = (maxLength: number) => ({ type: 'string', minLength: 1, maxLength, pattern: '\\S' }) as const;
const optionalText = (maxLength: number) => ({ type: ['string', 'null'], maxLength }) as const;
const url = { type: ['string', 'null'], format: 'uri', maxLength: 2048 } as const;

export const APP_FIELDS = {
  name: text(200),
  description: optionalText(5000),
  tagline: optionalText(300),
  support_email: { type: ['string', 'null'], format: 'email', maxLength: 254 },
  ios_store_url: url,
  android_store_url: url,
  web_url: url,
  attribution_window_hours: { type: 'integer', minimum: 1, maximum: 8760 },
} as const;

/** A localized map (`name_i18n`, ...): locale (language code `de`, or language and region `pt-BR`) to text. */
const localized = (maxLength: number) =>
  ({
    type: 'object',
    maxProperties: 100,
    propertyNames: { pattern: LOCALE_PATTERN },
    additionalProperties: text(maxLength),
    description:
      `Locale (${LOCALE_PATTERN}, e.g. "de", "pt-BR") to text. A PATCH replaces the whole map ({} ` +
      `clears it) and records its locales as fresh translations of the current name, description and tagline.`,
  }) as const;

/** The app's store fee settings, read by a campaign's estimated proceeds basis (lib/commission-basis.ts). */
export const APP_FEE_FIELDS = {
  apple_small_business_program: {
    type: 'boolean',
    description:
      "Enrolled in Apple's App Store Small Business Program (decided per developer account; set it on each of the " +
      "account's apps): Apple's fee is estimated at 15 % instead of 30 % (default false).",
  },
  google_play_fee_tier_enrolled: {
    type: 'boolean',
    description:
      "Enrolled in Google Play's 15 % service-fee tier: one-time products are estimated at 15 % (else 30 %; " +
      'subscriptions are 15 % either way; earnings past the tier of $1M a year are not tracked). Default false.',
  },
} as const;

/** App fields only PATCH takes (spec "App": the localized maps, the creator-code settings, the store fee settings). */
export const APP_PATCH_ONLY_FIELDS = {
  ...APP_FEE_FIELDS,
  name_i18n: localized(200),
  description_i18n: localized(5000),
  tagline_i18n: localized(300),
  creator_code_settings: {
    type: 'object',
    additionalProperties: false,
    minProperties: 1,
    properties: {
      mirror_free_access_to_subprovider: {
        type: 'boolean',
        description:
          'Also grant free-access codes as promotional entitlements at the subscription ' +
          "provider (best effort; default false). Turning it on needs the provider's " +
          'secret API key uploaded first (credential-setup-link with platform subprovider), else 409.',
      },
    },
  },
} as const;

export const CAMPAIGN_FIELDS = {
  name: text(200),
  description: optionalText(5000),
  commission_percentage: { type: 'number', minimum: 0, maximum: 100 },
  /** Days a production commission is held before it becomes payable (refunds inside it reverse; after it, clawbacks). */
  holding_period_days: { type: 'integer', minimum: 0, maximum: 365 },
  commission_basis: {
    enum: ['gross', 'proceeds'],
    description:
      "What commission_percentage applies to: 'gross' (the customer's price, default) or 'proceeds' (what the " +
      "developer receives: tax out first, then the store's fee). Exact from the subscription provider's fractions, " +
      "else estimated from the app's fee settings and the storefront's tax. A change applies to later events only. " +
      'Refused (422) for an app whose server reports its purchases (POST /api/webhooks/purchase: no storefront).',
  },
} as const;

/** Campaign types an agent may create (FREE_ACCESS belongs to free-access codes). */
export const CAMPAIGN_TYPE = { enum: ['public', 'private', 'invite_only'], default: 'public' } as const;

export type AgentCampaignType = (typeof CAMPAIGN_TYPE.enum)[number];

/**
 * Milestone bonus rules (CONTRACT.md): set at creation and by PATCH, where the list replaces the campaign's rules
 * matched by threshold. lib/bonus-rules.ts adds what a schema cannot say (distinct thresholds, whole cents).
 */
export const BONUS_RULES = {
  type: 'array',
  maxItems: MAX_BONUS_RULES,
  description:
    'Milestone bonuses: a creator whose unreversed production paid conversions in the campaign reach ' +
    'threshold_conversions earns bonus_usd once per rule (no platform fee; approval reserves it). At most 10, ' +
    'distinct thresholds, bonus_usd > 0 with at most 2 decimals, up to 100000; name defaults to "{N} conversions ' +
    'bonus". On PATCH the list replaces the rules by threshold: the same threshold updates name and amount (future ' +
    'awards only), a missing threshold is deactivated (its awards stay), a new one is added; creators already past a ' +
    'saved threshold earn it at once.',
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['threshold_conversions', 'bonus_usd'],
    properties: {
      threshold_conversions: { type: 'integer', minimum: 1, maximum: 1_000_000 },
      bonus_usd: { type: 'number', exclusiveMinimum: 0, maximum: MAX_BONUS_USD },
      name: { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S' },
    },
  },
} as const;

/** The body of a person's review decision (a bonus award's, a commission's): approve or void, with an optional note. */
export const reviewDecisionBody = (decision: string, note: { maxLength: number; description?: string }) =>
  ({
    type: 'object',
    additionalProperties: false,
    required: ['decision'],
    properties: {
      decision: { type: 'string', enum: ['approve', 'void'], description: decision },
      note: { type: 'string', ...note },
    },
  }) as const;
