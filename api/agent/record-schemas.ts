// JSON Schemas of the records the agent API answers (app, campaign with its stats, one free-access code with its
// redemptions, a creator's offer code, a commission review, the resource index) and of the client API's purchase event. The OpenAPI
// document (openapi.ts) and the wire contract (`svc://contract`) both show these objects, so a field is described
// once. Answers may carry more fields than listed (additionalProperties), never fewer of the required ones.
import { FRAUD_SIGNALS } from '../../lib/fraud-signals/index.js';
import { LOCALE_PATTERN } from '../../lib/i18n-freshness.js';
import { APP_FEE_FIELDS, APP_PATCH_ONLY_FIELDS } from './field-schemas.js';

type Schema = Record<string, unknown>;

const str = (description?: string): Schema => ({ type: 'string', ...(description ? { description } : {}) });
const nullable = (type: string, description?: string): Schema => ({ type: [type, 'null'], ...(description ? { description } : {}) });
const time = (description?: string): Schema => ({ type: ['string', 'null'], format: 'date-time', ...(description ? { description } : {}) });
const count = (description: string): Schema => ({ type: 'integer', minimum: 0, description });
const usd = (description: string): Schema => ({ type: 'number', description });
const record = (required: string[], properties: Record<string, Schema>, description?: string): Schema => ({
  type: 'object',
  required,
  properties,
  additionalProperties: true,
  ...(description ? { description } : {}),
});

const localizedMap = (field: string): Schema => ({
  type: 'object',
  propertyNames: { pattern: LOCALE_PATTERN },
  additionalProperties: { type: 'string' },
  description: `Locale to translated ${field}; each locale's freshness against the current text is in i18n.locales.`,
});

/** Each locale's copy with `status` fresh or stale against the SHA-256 of the current source text. */
const I18N_VIEW = record(['source_hash', 'locales', 'stale_locales', 'fresh_locales'], {
  source_hash: str('SHA-256 of the current source text'),
  locales: {
    type: 'object',
    additionalProperties: record(['status'], { status: { enum: ['fresh', 'stale'] }, source_hash: nullable('string'), updated_at: time() }),
  },
  stale_locales: { type: 'array', items: { type: 'string' } },
  fresh_locales: { type: 'array', items: { type: 'string' } },
});

export const APP_RECORD = record(
  ['app_id', 'org_id', 'name', 'slug', 'sdk_key', 'name_i18n', 'description_i18n', 'tagline_i18n', 'creator_code_settings', 'i18n'],
  {
    app_id: str(),
    org_id: str(),
    name: str(),
    slug: str('First path segment of referral links'),
    description: nullable('string'),
    tagline: nullable('string'),
    support_email: nullable('string'),
    sdk_key: str('Public SDK key (it_...), ships in the app'),
    attribution_window_hours: { type: 'integer' },
    ios_validation_provider: nullable('string'),
    android_validation_provider: nullable('string'),
    ios_store_url: nullable('string'),
    android_store_url: nullable('string'),
    web_url: nullable('string'),
    webhook_url: str('Where the subscription provider sends purchase webhooks'),
    webhook_connected_at: time(),
    sdk_initialized_at: time(),
    created_at: time(),
    updated_at: time(),
    name_i18n: localizedMap('name'),
    description_i18n: localizedMap('description'),
    tagline_i18n: localizedMap('tagline'),
    creator_code_settings: {
      ...APP_PATCH_ONLY_FIELDS.creator_code_settings,
      required: ['mirror_free_access_to_subprovider'],
      minProperties: undefined,
      description: 'Spec "creator-code settings". mirror_free_access_to_subprovider: false unless turned on.',
    },
    i18n: I18N_VIEW,
    ...APP_FEE_FIELDS,
  },
);

/**
 * A campaign's lifetime production counters (db/analytics.ts defines them; the funnel of a period covering the
 * campaign's whole life answers the same numbers). Sandbox environments never count.
 */
const CAMPAIGN_STATS = record(
  ['clicks', 'installs', 'attributed_installs', 'conversions', 'revenue_usd', 'commission_usd'],
  {
    clicks: count("Referral link clicks on the campaign's codes"),
    installs: count(
      'Installs recorded for the campaign (an install belongs to a campaign only through attribution, so equal to attributed_installs)',
    ),
    attributed_installs: count("Installs attributed to one of the campaign's codes"),
    conversions: count(
      'Attributed production conversions (one per subscription or one-time purchase) that paid: ' +
        'no trial, or a trial that converted; a later refund does not uncount it (revenue shows it)',
    ),
    revenue_usd: usd(
      'Net production revenue in USD of every paid purchase attributed to the campaign (first purchases and renewals), refunds subtracted',
    ),
    commission_usd: usd('Net production commission in USD on the same purchases (what creators earned, refunded ones reversed)'),
  },
  'Lifetime production counters; sandbox (SANDBOX, XCODE, LOCAL_TESTING) never counts.',
);

export const CAMPAIGN_RECORD = record(['id', 'app_id', 'org_id', 'name', 'campaign_type', 'status', 'commission_percentage', 'stats'], {
  id: str(),
  app_id: str(),
  org_id: str(),
  name: str(),
  description: nullable('string'),
  campaign_type: { enum: ['public', 'private', 'invite_only', 'FREE_ACCESS'] },
  status: { enum: ['draft', 'active', 'paused', 'archived'] },
  commission_percentage: { type: 'number' },
  holding_period_days: { type: 'integer' },
  commission_basis: { enum: ['gross', 'proceeds'] },
  activated_at: time(),
  paused_at: time(),
  created_at: time(),
  updated_at: time(),
  join_url: str('Public join page'),
  i18n: I18N_VIEW,
  stats: CAMPAIGN_STATS,
});

const REDEMPTION = record(['app_user_id', 'granted_at', 'expires_at'], {
  app_user_id: str(),
  granted_at: time('When the user first redeemed the code'),
  expires_at: time('When the access ends (null: open-ended)'),
});

export const FREE_CODE_WITH_REDEMPTIONS = record(
  ['id', 'code', 'redemptions', 'next_cursor'],
  {
    id: str(),
    code: str(),
    entitlement: str(),
    seat_limit: nullable('integer'),
    seats_used: { type: 'integer' },
    seats_left: nullable('integer'),
    expires_at: time(),
    blocked: { type: 'boolean' },
    live: { type: 'boolean' },
    redemptions: {
      type: 'array',
      items: REDEMPTION,
      maxItems: 100,
      description: 'The users the code granted access to, newest grant first',
    },
    next_cursor: nullable('string', 'Pass back as cursor for the next page; null on the last'),
  },
  'GET /apps/{app_id}/free-codes?code=X',
);

export const RESOURCE_INDEX = record(
  ['resources', 'resource_templates'],
  {
    tool_server: str(),
    openapi: str(),
    read: str(),
    resources: {
      type: 'array',
      items: record(['uri', 'name'], { uri: str(), name: str(), title: str(), description: str(), mimeType: str() }),
    },
    resource_templates: {
      type: 'array',
      items: record(['uriTemplate', 'uris'], { uriTemplate: str(), uris: { type: 'array', items: str() } }),
    },
  },
  "GET /api/agent: the tool server's resources; ?uri= answers one resource's JSON instead",
);

/** GET /api/sdk/recent-conversions: one purchase event (spec "Purchase event"). */
export const PURCHASE_EVENT = record(['event_type', 'environment', 'is_test', 'attributed', 'status', 'event_timestamp'], {
  event_type: str(),
  product_id: nullable('string'),
  store: nullable('string'),
  environment: { enum: ['SANDBOX', 'PRODUCTION'], description: "SANDBOX also for the stores' XCODE and LOCAL_TESTING environments" },
  is_test: { type: 'boolean', description: 'True for every sandbox environment' },
  attributed: { type: 'boolean' },
  referral_code: nullable('string'),
  attribution_method: nullable('string', "How the conversion was attributed when the event is (offer_code: a creator's store offer code)"),
  status: str('e.g. active'),
  event_timestamp: time(),
});

const micros = (description: string): Schema => ({ type: ['integer', 'null'], description });

/** One commission with its basis (GET /campaigns/{id}/commissions, api/agent/commissions.ts). */
export const COMMISSION_RECORD = record(['id', 'kind', 'commission_micros', 'basis', 'basis_amounts'], {
  id: str(),
  kind: { enum: ['earn', 'reversal'] },
  reverses_commission_id: nullable('string', 'The commission a reversal (refund) takes from'),
  conversion_id: str(),
  purchase_event_id: str(),
  event_type: str(),
  transaction_id: nullable('string'),
  store: nullable('string'),
  creator_id: str(),
  environment: str(),
  status: str(),
  review_state: {
    type: ['string', 'null'],
    enum: ['flagged', 'held', 'approved', 'voided', null],
    description: 'A review beside the status: a held commission is never paid until approved; null when no fraud signal was raised',
  },
  revenue_micros: { type: 'integer', description: "The customer's price in micro-USD (negative on a reversal)" },
  commission_micros: { type: 'integer' },
  platform_fee_micros: { type: 'integer' },
  commission_percentage: { type: 'number' },
  basis: { enum: ['gross', 'proceeds'], description: 'What commission_percentage applied to, as stored with the commission' },
  basis_amounts: record(['precision', 'gross_micros', 'tax_micros', 'store_fee_micros', 'base_micros'], {
    precision: { enum: ['exact', 'estimated'], description: "exact: the provider's fractions; estimated: fee settings and tax table" },
    gross_micros: micros('The price'),
    tax_micros: micros('Tax taken out of the price (null on gross)'),
    store_fee_micros: micros("The store's fee on the price without tax (null on gross)"),
    base_micros: micros('What the percentage applied to'),
  }),
  created_at: time(),
});

/** A creator's store offer code (CONTRACT.md "Creator offer codes"). */
export const OFFER_CODE_RECORD = record(['id', 'campaign_id', 'creator_id', 'platform', 'value', 'custom_code', 'redeem_url', 'status'], {
  id: str(),
  campaign_id: str(),
  creator_id: str(),
  platform: { enum: ['ios', 'android'] },
  match: { enum: ['reference_name', 'offer_id', 'offer_tag'], description: 'What the value is matched as in a purchase' },
  value: str("ios: the App Store offer's reference name; android: the Play offer id or offer tag"),
  custom_code: nullable('string', 'What people type; builds redeem_url only'),
  product_id: nullable('string'),
  base_plan_id: nullable('string'),
  redeem_url: nullable('string', "The store's redemption link for custom_code (ios also needs the app's Apple id); null without"),
  status: { enum: ['active', 'retired'] },
  retired_at: time(),
  created_at: time(),
});

/** A review of a suspicious commission (CONTRACT.md "Review of suspicious commissions"). */
export const REVIEW_RECORD = record(
  ['id', 'commission_id', 'creator_id', 'campaign_id', 'amount_usd', 'amount_micros', 'status', 'signals', 'created_at'],
  {
    id: str(),
    commission_id: str(),
    creator_id: str(),
    campaign_id: str(),
    app_id: str(),
    amount_usd: usd('The commission under review'),
    amount_micros: { type: 'integer', description: 'The same in micro-USD' },
    status: { enum: ['open', 'approved', 'voided'] },
    action: { enum: ['hold', 'flag'], description: 'hold: never payable until approved; flag: paid as usual' },
    signals: {
      type: 'array',
      items: record(['signal', 'evidence'], {
        signal: { enum: [...FRAUD_SIGNALS] },
        evidence: str('One sentence in words'),
        weak: { const: true, description: 'Only weak evidence (install_farm over a /24 or /48)' },
      }),
    },
    commission_status: str("The commission's status (reserved, payable, paid, reversed, ...)"),
    review_state: nullable('string', 'flagged, held, approved or voided, beside the commission status'),
    payable_at: time('When the holding period ends'),
    raised_at_step: { enum: ['earn', 'release'] },
    decided_at: time(),
    decided_by: nullable('string', 'Who decided: actor type and id'),
    note: nullable('string'),
    creator_name: str(),
    campaign_name: str(),
    app_name: str(),
    created_at: time(),
  },
);

const list = (key: string, item: Schema): Schema =>
  record([key, 'count'], { [key]: { type: 'array', items: item }, count: { type: 'integer' } });

/** The answer of each tool's endpoint where it is a record above (others: a JSON object). */
export const ANSWER_SCHEMAS: Readonly<Record<string, Schema>> = {
  svc_get_app: APP_RECORD,
  svc_update_app: APP_RECORD,
  svc_list_apps: list('apps', APP_RECORD),
  svc_get_campaign: CAMPAIGN_RECORD,
  svc_update_campaign: CAMPAIGN_RECORD,
  svc_create_campaign: CAMPAIGN_RECORD,
  svc_set_campaign_status: CAMPAIGN_RECORD,
  svc_list_campaigns: list('campaigns', CAMPAIGN_RECORD),
  svc_list_commissions: list('commissions', COMMISSION_RECORD),
  svc_add_offer_code: OFFER_CODE_RECORD,
  svc_list_offer_codes: list('offer_codes', OFFER_CODE_RECORD),
  svc_retire_offer_code: OFFER_CODE_RECORD,
  svc_list_reviews: list('reviews', REVIEW_RECORD),
  svc_review_commission: REVIEW_RECORD,
  svc_list_free_codes: {
    oneOf: [
      record(['app_id', 'free_codes', 'count'], { free_codes: { type: 'array', items: { type: 'object' } } }),
      FREE_CODE_WITH_REDEMPTIONS,
    ],
  },
};
