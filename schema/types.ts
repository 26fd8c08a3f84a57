// Row types of every table (one interface per table, as the pg driver returns rows) and the enumerations
// that the migrations enforce with CHECK constraints. Keep both in step with schema/migrations.
//
// Driver assumptions, set once where the pg pool is created:
//   int8 (OID 20)     -> number  (micro-USD fits: 2^53 micros is about 9 billion USD); ledger ids too
//   numeric (OID 1700) stays string (exact decimals: percentages, FX rates, store prices)
//   date (OID 1082)   -> string 'YYYY-MM-DD' (the default parser would shift it to local midnight)
//   timestamptz        -> Date; jsonb -> parsed JSON; text[] -> string[]

/** Integer micro-USD, 1 USD = 1_000_000. */
export type Micros = number;
/** PostgreSQL numeric returned as an exact decimal string. */
export type Decimal = string;
/** PostgreSQL date as 'YYYY-MM-DD'. */
export type DateOnly = string;
export type JsonObject = Record<string, unknown>;

const values = <T extends string>(...v: T[]): readonly T[] => Object.freeze(v);

// ---- enumerations ---------------------------------------------------------------------------------------
export const PLATFORMS = values('ios', 'android', 'web');
export type Platform = (typeof PLATFORMS)[number];
export const STORE_PLATFORMS = values('ios', 'android');
export type StorePlatform = (typeof STORE_PLATFORMS)[number];

/** Stored normalised (uppercase). Everything but PRODUCTION never moves money or counts in stats. */
export const ENVIRONMENTS = values('PRODUCTION', 'SANDBOX', 'XCODE', 'LOCAL_TESTING');
export type Environment = (typeof ENVIRONMENTS)[number];
export const SANDBOX_ENVIRONMENTS = values('SANDBOX', 'XCODE', 'LOCAL_TESTING');

export const MEMBERSHIP_ROLES = values('owner', 'admin', 'member');
export type MembershipRole = (typeof MEMBERSHIP_ROLES)[number];

/** apps.{ios,android}_validation_provider; null or 'subprovider' = subscription-provider path. */
export const IOS_VALIDATION_PROVIDERS = values('subprovider', 'app_store');
export const ANDROID_VALIDATION_PROVIDERS = values('subprovider', 'google_play');
export type ValidationProvider = 'subprovider' | 'app_store' | 'google_play';

/** store_credentials.platform; 'subprovider' holds the subscription provider's secret REST key. */
export const CREDENTIAL_PLATFORMS = values('ios', 'android', 'subprovider');
export type CredentialPlatform = (typeof CREDENTIAL_PLATFORMS)[number];
export const CREDENTIAL_CHECK_STATUSES = values('unchecked', 'ok', 'failed', 'retryable');
export type CredentialCheckStatus = (typeof CREDENTIAL_CHECK_STATUSES)[number];

export const CAMPAIGN_TYPES = values('public', 'private', 'invite_only', 'FREE_ACCESS');
export type CampaignType = (typeof CAMPAIGN_TYPES)[number];
export const CAMPAIGN_STATUSES = values('draft', 'active', 'paused', 'archived');
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

export const CREATOR_CODE_STATUSES = values('active', 'removed');
export type CreatorCodeStatus = (typeof CREATOR_CODE_STATUSES)[number];
export const CREATOR_CODE_SOURCES = values('join', 'invite', 'seed');
export type CreatorCodeSource = (typeof CREATOR_CODE_SOURCES)[number];

export const INVITATION_STATUSES = values('PENDING', 'ACCEPTED', 'WITHDRAWN', 'EXPIRED');
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

export const CLICK_SOURCES = values('link', 'manual');
export type ClickSource = (typeof CLICK_SOURCES)[number];

/** How an install was attributed (track-install answer / set-referral-code). */
export const INSTALL_ATTRIBUTION_METHODS = values('link_param', 'ip_device_match', 'manual_code');
export type InstallAttributionMethod = (typeof INSTALL_ATTRIBUTION_METHODS)[number];
/** User/conversion attribution adds 'purchase_code': the code arrived with the purchase itself
 *  (subscriber attribute svc_code, /sdk/purchase referral_code, direct webhook svc_code), and 'offer_code': the
 *  purchase redeemed a creator's store offer code (migrations 0050, 0053). */
export const ATTRIBUTION_METHODS = values('link_param', 'ip_device_match', 'manual_code', 'purchase_code', 'offer_code');
export type AttributionMethod = (typeof ATTRIBUTION_METHODS)[number];

/** SDK event types kept to one per user and property set (sdk_events.singleton_key). */
export const SINGLETON_SDK_EVENT_TYPES = values('trial_started', 'subscription_purchased', 'subscription_renewed');

/** Inbound purchase event types we know; others are stored, acknowledged and ignored (no CHECK on purpose). */
export const PURCHASE_EVENT_TYPES = values(
  'TEST',
  'INITIAL_PURCHASE',
  'RENEWAL',
  'NON_RENEWING_PURCHASE',
  'CANCELLATION',
  'UNCANCELLATION',
  'EXPIRATION',
  'PRODUCT_CHANGE',
  'BILLING_ISSUE',
  'REFUND',
  'TRANSFER',
  'SUBSCRIPTION_EXTENDED',
  'TEMPORARY_ENTITLEMENT_GRANT',
  'SUBSCRIPTION_PAUSED',
  'INVOICE_ISSUANCE',
  'VIRTUAL_CURRENCY_TRANSACTION',
  'REFUND_REVERSED',
);
export type PurchaseEventType = (typeof PURCHASE_EVENT_TYPES)[number];
export const PURCHASE_EVENT_SOURCES = values('subprovider', 'store_direct', 'direct', 'test_integration');
export type PurchaseEventSource = (typeof PURCHASE_EVENT_SOURCES)[number];
/** `failed`: the activity could not apply the event (an unexpected error after bounded attempts); re-driven by `svc events retry`. */
export const PROCESSING_STATUSES = values('received', 'processed', 'ignored', 'error', 'failed');
export type ProcessingStatus = (typeof PROCESSING_STATUSES)[number];
export const INBOX_STATUSES = values('waiting', 'delivered');
export type InboxStatus = (typeof INBOX_STATUSES)[number];
export const STORE_PROOF_STATUSES = values('pending', 'verified', 'rejected', 'error');
export type StoreProofStatus = (typeof STORE_PROOF_STATUSES)[number];

export const CONVERSION_KINDS = values('subscription', 'one_time');
export type ConversionKind = (typeof CONVERSION_KINDS)[number];
/**
 * trialing      INITIAL_PURCHASE in a trial; no commission until it converts
 * active        paid (one-time purchases stay here unless refunded); UNCANCELLATION returns here
 * cancelled     auto-renew off (CANCELLATION), still entitled until the period ends; commission unaffected
 * billing_issue renewal payment failed, store in grace/retry
 * churned       EXPIRATION: terminal for commission tracking
 * refunded      REFUND: the commissions of the refunded transaction are reversed
 */
export const CONVERSION_STATUSES = values('trialing', 'active', 'cancelled', 'billing_issue', 'churned', 'refunded');
export type ConversionStatus = (typeof CONVERSION_STATUSES)[number];

export const COMMISSION_KINDS = values('earn', 'reversal');
export type CommissionKind = (typeof COMMISSION_KINDS)[number];
/**
 * reserved  production earn, funds reserved in the wallet ledger
 * unfunded  production earn recorded while the wallet could not cover it (no ledger entry)
 * simulated sandbox/test environment: computed for visibility, never moves money (DB-enforced)
 * reversed  an earn undone by a refund inside its holding period, and every reversal row itself
 * payable   production earn past its holding period (commissions.payable_at), still reserved, waiting for a payout
 * paid      included in a payout (payout_id); a refund after the holding period leaves a payable or paid earn as it
 *           is (reversed_at set) and records a clawback against the creator instead
 */
export const COMMISSION_STATUSES = values('reserved', 'unfunded', 'simulated', 'reversed', 'payable', 'paid');
/** Migration 0054: a review beside the status (null: never raised). A held commission is never payable until approved. */
export const COMMISSION_REVIEW_STATES = values('flagged', 'held', 'approved', 'voided');
export type CommissionReviewState = (typeof COMMISSION_REVIEW_STATES)[number];
export const REVIEW_STATUSES = values('open', 'approved', 'voided');
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];
export const REVIEW_ACTIONS = values('flag', 'hold');
export type ReviewAction = (typeof REVIEW_ACTIONS)[number];
export type CommissionStatus = (typeof COMMISSION_STATUSES)[number];

/** Signs per entry type are DB-enforced; see LedgerEntryRow. */
export const LEDGER_ENTRY_TYPES = values(
  'topup',
  'reserve',
  'release',
  'reversal',
  'payout',
  'adjustment',
  'clawback',
  'payout_return',
  // Migration 0049: a row that held a fraction of a cent, rounded to the cent; any sign, at most 5 cents, memo.
  'rounding',
);
export type LedgerEntryType = (typeof LEDGER_ENTRY_TYPES)[number];

export const PAYMENT_PROVIDERS = values('test', 'stripe');
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];
export const PAYMENT_STATUSES = values('pending', 'succeeded', 'failed');
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
/** topup: a human's payment through the signed link; auto_recharge: a charge of the saved payment method (0020). */
export const PAYMENT_KINDS = values('topup', 'auto_recharge');
export type PaymentKind = (typeof PAYMENT_KINDS)[number];

export const BONUS_AWARD_STATUSES = values('earned', 'approved', 'voided', 'paid');
export type BonusAwardStatus = (typeof BONUS_AWARD_STATUSES)[number];

export const EMAIL_STATUSES = values('queued', 'sent', 'failed');
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

export const AUDIT_ACTOR_TYPES = values('agent_key', 'oauth', 'user', 'system');
export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];

/** The only values agent_keys.scopes / oauth_grants.scopes may hold (DB-enforced). */
export const AGENT_SCOPES = values(
  'apps:read',
  'apps:write',
  'campaigns:read',
  'campaigns:write',
  'analytics:read',
  'creators:read',
  'creators:write',
  'assets:read',
  'assets:write',
  'billing:read',
  'integration:verify',
);
export type AgentScope = (typeof AGENT_SCOPES)[number];

/** Prefixes of database-generated ids: svc_id(prefix) = prefix + '_' + 32 hex chars. */
export const ID_PREFIXES = Object.freeze({
  organization: 'org',
  user: 'usr',
  session: 'ses',
  app: 'app',
  campaign: 'cmp',
  creator: 'crt',
  creatorCode: 'cc',
  invitation: 'inv',
  click: 'clk',
  install: 'ins',
  identify: 'idf',
  sdkEvent: 'sev',
  freeAccessCode: 'fac',
  freeAccessGrant: 'fag',
  freeAccessRedemption: 'frd',
  purchaseEvent: 'pev',
  conversion: 'cnv',
  commission: 'com',
  bonusRule: 'bnr',
  bonusAward: 'bna',
  asset: 'ast',
  agentKey: 'akey',
  oauthGrant: 'ogr',
  audit: 'aud',
  emailOutbox: 'obx',
  accountToken: 'atk',
} as const);

// ---- tenancy --------------------------------------------------------------------------------------------
export interface UserRow {
  id: string;
  email: string;
  password_hash: string | null;
  name: string | null;
  email_verified_at: Date | null;
  last_login_at: Date | null;
  created_at: Date;
  updated_at: Date;
}
export interface OrganizationRow {
  id: string;
  name: string;
  /** Overrides of the service defaults; null = default. */
  min_escrow_micros: Micros | null;
  marketplace_slots: number | null;
  daily_email_budget: number | null;
  auto_recharge_enabled: boolean;
  auto_recharge_threshold_micros: Micros | null;
  auto_recharge_amount_micros: Micros | null;
  billing_email: string | null;
  /** Migration 0020: the saved payment method auto-recharge charges, and why the service turned it off. */
  auto_recharge_provider: PaymentProviderName | null;
  auto_recharge_customer_id: string | null;
  auto_recharge_payment_method_id: string | null;
  auto_recharge_payment_method_label: string | null;
  auto_recharge_disabled_reason: string | null;
  auto_recharge_updated_at: Date | null;
  created_by_user_id: string | null;
  created_at: Date;
  updated_at: Date;
}
export interface MembershipRow {
  org_id: string;
  user_id: string;
  role: MembershipRole;
  created_at: Date;
  updated_at: Date;
}
export interface SessionRow {
  id: string;
  user_id: string;
  token_hash: string;
  active_org_id: string | null;
  ip: string | null;
  user_agent: string | null;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
}

// ---- apps -----------------------------------------------------------------------------------------------
export type I18nText = Record<string, string>;
export interface AppRow {
  id: string;
  org_id: string;
  name: string;
  slug: string;
  description: string | null;
  tagline: string | null;
  name_i18n: I18nText;
  description_i18n: I18nText;
  tagline_i18n: I18nText;
  /** locale -> { source_hash, updated_at } */
  i18n_meta: Record<string, { source_hash: string; updated_at: string }>;
  support_email: string | null;
  icon_url: string | null;
  creator_code_settings: JsonObject;
  sdk_key: string;
  sdk_key_hash: string;
  webhook_secret_hash: string;
  webhook_secret_hint: string | null;
  webhook_secret_rotated_at: Date | null;
  purchase_api_key_hash: string | null;
  purchase_api_key_rotated_at: Date | null;
  ios_validation_provider: 'subprovider' | 'app_store' | null;
  android_validation_provider: 'subprovider' | 'google_play' | null;
  attribution_window_hours: number;
  ios_store_url: string | null;
  android_store_url: string | null;
  web_url: string | null;
  ios_bundle_id: string | null;
  android_package_name: string | null;
  app_store_id: string | null;
  apple_meta: JsonObject;
  /** Store fee settings of an estimated proceeds basis (lib/commission-basis.ts AppFeeSettings). */
  apple_small_business_program: boolean;
  google_play_fee_tier_enrolled: boolean;
  sdk_initialized_at: Date | null;
  sdk_name: string | null;
  sdk_version: string | null;
  sdk_platform: Platform | null;
  sdk_init_meta: JsonObject;
  webhook_connected_at: Date | null;
  created_at: Date;
  updated_at: Date;
}
export interface StoreCredentialRow {
  app_id: string;
  platform: CredentialPlatform;
  ciphertext: Buffer;
  iv: Buffer;
  auth_tag: Buffer;
  enc_key_version: number;
  key_id: string | null;
  issuer_id: string | null;
  bundle_id: string | null;
  package_name: string | null;
  /** Android: the service account whose OIDC tokens sign the Play notifications' Pub/Sub pushes (schema 0043). */
  pubsub_service_account: string | null;
  environment: Environment | null;
  check_status: CredentialCheckStatus;
  check_attempts: number;
  checked_at: Date | null;
  last_error: string | null;
  uploaded_by_user_id: string | null;
  created_at: Date;
  updated_at: Date;
}

// ---- campaigns and creators -----------------------------------------------------------------------------
export interface CampaignI18nEntry {
  name?: string;
  description?: string;
  source_hash: string;
  updated_at: string;
}
/** What a campaign's commission percentage applies to (lib/commission-basis.ts). */
export const COMMISSION_BASES = ['gross', 'proceeds'] as const;
export type CommissionBasis = (typeof COMMISSION_BASES)[number];
export type BasisPrecision = 'exact' | 'estimated';
export interface CampaignRow {
  id: string;
  app_id: string;
  org_id: string;
  name: string;
  description: string | null;
  campaign_type: CampaignType;
  status: CampaignStatus;
  commission_percentage: Decimal;
  i18n: Record<string, CampaignI18nEntry>;
  activated_at: Date | null;
  paused_at: Date | null;
  archived_at: Date | null;
  created_at: Date;
  updated_at: Date;
  holding_period_days: number;
  commission_basis: CommissionBasis;
  /** Per fraud signal 'off' | 'flag' | 'hold'; a signal not named takes its default (lib/fraud-signals). */
  fraud_signal_actions: Record<string, string>;
}
export interface BonusRuleRow {
  id: string;
  campaign_id: string;
  name: string;
  threshold_conversions: number;
  bonus_micros: Micros;
  active: boolean;
  created_at: Date;
  updated_at: Date;
}
export interface CreatorRow {
  id: string;
  name: string;
  email: string | null;
  social_handle: string | null;
  follower_count: number | null;
  avatar_url: string | null;
  language: string | null;
  created_at: Date;
  updated_at: Date;
}
export interface CreatorCodeRow {
  id: string;
  app_id: string;
  campaign_id: string;
  creator_id: string;
  code: string;
  status: CreatorCodeStatus;
  source: CreatorCodeSource;
  joined_at: Date;
  removed_at: Date | null;
  /** The address and browser the creator joined from (self-referral evidence; pruned after its retention). */
  join_ip: string | null;
  join_user_agent: string | null;
  created_at: Date;
  updated_at: Date;
}
export interface InvitationRow {
  id: string;
  campaign_id: string;
  org_id: string;
  email: string;
  name: string | null;
  message: string | null;
  lang: string | null;
  token_hash: string;
  status: InvitationStatus;
  expires_at: Date;
  withdrawn_at: Date | null;
  accepted_at: Date | null;
  creator_id: string | null;
  invited_by: string | null;
  created_at: Date;
  updated_at: Date;
}

// ---- client funnel --------------------------------------------------------------------------------------
export interface ClickRow {
  id: string;
  app_id: string;
  campaign_id: string;
  creator_code_id: string;
  code: string;
  source: ClickSource;
  ip: string | null;
  user_agent: string | null;
  platform: Platform | null;
  os_version: string | null;
  language: string | null;
  timezone: string | null;
  screen: string | null;
  referrer: string | null;
  device_hints: JsonObject;
  clicked_at: Date;
  claimed_at: Date | null;
  claimed_install_id: string | null;
}
export interface InstallRow {
  id: string;
  app_id: string;
  device_id: string | null;
  platform: Platform | null;
  device_brand: string | null;
  device_model: string | null;
  os_version: string | null;
  app_version: string | null;
  screen_resolution: string | null;
  timezone: string | null;
  language: string | null;
  ip: string | null;
  user_agent: string | null;
  attributed: boolean;
  attribution_method: InstallAttributionMethod | null;
  click_id: string | null;
  creator_code_id: string | null;
  campaign_id: string | null;
  referral_code: string | null;
  attributed_at: Date | null;
  /** Google Play Install Referrer times as track-install carried them (click injection); null when not reported. */
  referrer_click_at: Date | null;
  install_begin_at: Date | null;
  install_begin_server_at: Date | null;
  /** The request carried X-Forwarded-For with TRUST_PROXY off: `ip` is the proxy's (IP signals are off). */
  ip_via_untrusted_proxy: boolean;
  created_at: Date;
  updated_at: Date;
}
export interface IdentifyRow {
  id: string;
  app_id: string;
  app_user_id: string;
  install_id: string | null;
  click_id: string | null;
  device_id: string | null;
  ip: string | null;
  properties: JsonObject;
  attribution_backfilled: boolean;
  created_at: Date;
}
export interface UserAttributionRow {
  app_id: string;
  app_user_id: string;
  click_id: string | null;
  install_id: string | null;
  creator_code_id: string;
  campaign_id: string;
  creator_id: string;
  referral_code: string;
  method: AttributionMethod;
  attributed_at: Date;
  /** First attributed conversion; from then on the user stays with this creator. */
  converted_at: Date | null;
  /** The offer code that bound the user (method offer_code). */
  offer_code_id: string | null;
  updated_at: Date;
}
export interface SdkEventRow {
  id: string;
  app_id: string;
  event_id: string;
  event_type: string;
  app_user_id: string;
  properties: JsonObject;
  referral_code: string | null;
  platform: Platform | null;
  environment: Environment | null;
  singleton_key: string | null;
  content_hash: string | null;
  ip: string | null;
  created_at: Date;
}

// ---- free access ----------------------------------------------------------------------------------------
export interface FreeAccessCodeRow {
  id: string;
  app_id: string;
  code: string;
  name: string | null;
  entitlement: string;
  access_duration_years: number | null;
  access_duration_days: number | null;
  expires_at: Date | null;
  /** null = unlimited seats */
  seat_limit: number | null;
  seats_used: number;
  blocked: boolean;
  blocked_at: Date | null;
  custom_data: unknown;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}
export interface FreeAccessGrantRow {
  id: string;
  free_code_id: string;
  app_id: string;
  app_user_id: string;
  granted_at: Date;
  /** null = open-ended */
  access_expires_at: Date | null;
  last_redeemed_at: Date;
  redemption_count: number;
  rc_grant: { attempted: boolean; ok: boolean; error?: string | null } | null;
  updated_at: Date;
}
export interface FreeAccessRedemptionRow {
  id: string;
  grant_id: string;
  app_id: string;
  app_user_id: string;
  ip: string | null;
  user_agent: string | null;
  already_granted: boolean;
  created_at: Date;
}

// ---- purchases ------------------------------------------------------------------------------------------
export interface FxRateRow {
  currency: string;
  rate_date: DateOnly;
  usd_per_unit: Decimal;
  source: string;
  fetched_at: Date;
}
/** One read of an ECB file: every day it published from first_date to last_date is in fx_rates. */
export interface FxRateLoadRow {
  id: number;
  source: string;
  first_date: DateOnly;
  last_date: DateOnly;
  fetched_at: Date;
}
export interface PurchaseEventRow {
  /** Also the webhook answer's event_id. */
  id: string;
  app_id: string;
  source: PurchaseEventSource;
  provider_event_id: string | null;
  /** A PurchaseEventType, or an unknown type that was recorded and ignored. */
  event_type: string;
  transaction_id: string | null;
  original_transaction_id: string | null;
  event_timestamp_ms: number;
  purchased_at: Date | null;
  expires_at: Date | null;
  app_user_id: string | null;
  original_app_user_id: string | null;
  aliases: string[];
  product_id: string | null;
  new_product_id: string | null;
  period_type: string | null;
  store: string | null;
  environment: Environment | null;
  is_test: boolean;
  price_usd_micros: Micros | null;
  price_in_purchased_currency: Decimal | null;
  currency: string | null;
  /** usd_per_unit applied to price_in_purchased_currency, the ECB day it was published for, and the file it came from. */
  fx_rate: Decimal | null;
  fx_rate_date: DateOnly | null;
  fx_source: string | null;
  takehome_percentage: Decimal | null;
  /** The provider's fractions of the price (0-1): the store's cut and the tax (lib/commission-basis.ts). */
  store_fee_fraction: Decimal | null;
  tax_fraction: Decimal | null;
  cancel_reason: string | null;
  expiration_reason: string | null;
  is_trial_conversion: boolean | null;
  subscriber_attributes: JsonObject;
  raw: JsonObject;
  conversion_id: string | null;
  attributed: boolean;
  organic: boolean;
  referral_code: string | null;
  processing_status: ProcessingStatus;
  error: string | null;
  received_at: Date;
  processed_at: Date | null;
}
export interface ConversionRow {
  id: string;
  app_id: string;
  org_id: string;
  conversion_key: string;
  kind: ConversionKind;
  attributed: boolean;
  campaign_id: string | null;
  creator_code_id: string | null;
  creator_id: string | null;
  referral_code: string | null;
  attribution_method: AttributionMethod | null;
  attributed_at: Date | null;
  /** The creator's store offer code that attributed the conversion (method offer_code; migration 0053). */
  offer_code_id: string | null;
  app_user_id: string | null;
  product_id: string | null;
  store: string | null;
  environment: Environment;
  is_test: boolean;
  status: ConversionStatus;
  period_type: string | null;
  billing_cycles: number;
  trial: boolean;
  trial_converted_at: Date | null;
  current_period_ends_at: Date | null;
  cancelled_at: Date | null;
  billing_issue_at: Date | null;
  churned_at: Date | null;
  refunded_at: Date | null;
  first_purchase_event_id: string | null;
  last_event_type: string | null;
  last_event_at: Date | null;
  workflow_id: string | null;
  created_at: Date;
  updated_at: Date;
}
export interface StorePurchaseProofRow {
  app_id: string;
  proof_hash: string;
  platform: StorePlatform;
  workflow_id: string | null;
  status: StoreProofStatus;
  purchase_event_id: string | null;
  result: JsonObject | null;
  created_at: Date;
  updated_at: Date;
}
/** The inbox (schema 0015): a conversion event as received, waiting for or handed to its conversion workflow. */
export interface PurchaseInboxRow {
  id: number;
  app_id: string;
  idempotency_key: string;
  conversion_key: string;
  event_type: string;
  /** The normalised PurchaseEvent (lib/purchase-event.ts); its `raw` is the body as received. */
  event: JsonObject;
  status: InboxStatus;
  attempts: number;
  next_attempt_at: Date;
  last_error: string | null;
  purchase_event_id: string | null;
  received_at: Date;
  delivered_at: Date | null;
}
/** A verified item as received, awaiting normalisation by a workflow (db/raw-intake.ts). */
export interface RawIntakeRow {
  id: number;
  app_id: string;
  source: string;
  external_id: string;
  payload: JsonObject;
  received_at: Date;
  normalised_at: Date | null;
}
export interface RejectedWebhookRow {
  app_id: string;
  day: DateOnly;
  reason: string;
  count: number;
  last_at: Date;
}

// ---- money ----------------------------------------------------------------------------------------------
/** earn rows carry amounts >= 0, reversal rows the negated amounts: SUM() is always net. */
export interface CommissionRow {
  id: string;
  conversion_id: string;
  purchase_event_id: string;
  app_id: string;
  org_id: string;
  campaign_id: string;
  creator_id: string;
  creator_code_id: string | null;
  kind: CommissionKind;
  reverses_commission_id: string | null;
  environment: Environment;
  revenue_usd_micros: Micros;
  commission_micros: Micros;
  platform_fee_micros: Micros;
  commission_percentage: Decimal;
  platform_fee_percentage: Decimal | null;
  /** The basis it was computed on and the amounts behind it (lib/commission-basis.ts), micro-USD. */
  commission_basis: CommissionBasis;
  basis_precision: BasisPrecision;
  basis_gross_micros: Micros | null;
  basis_tax_micros: Micros | null;
  basis_store_fee_micros: Micros | null;
  basis_base_micros: Micros | null;
  fx_rate: Decimal | null;
  status: CommissionStatus;
  reversed_at: Date | null;
  paid_at: Date | null;
  created_at: Date;
  updated_at: Date;
  payable_at: Date | null;
  payout_id: string | null;
  review_state: CommissionReviewState | null;
}
/** One review of a suspicious commission (migration 0054). */
export interface CommissionReviewRow {
  id: string;
  commission_id: string;
  org_id: string;
  app_id: string;
  campaign_id: string;
  creator_id: string;
  action: ReviewAction;
  status: ReviewStatus;
  signals: { signal: string; evidence: string; weak?: true }[];
  raised_at_step: 'earn' | 'release';
  escalated_at: Date | null;
  decided_by: string | null;
  note: string | null;
  decided_at: Date | null;
  created_at: Date;
  updated_at: Date;
}
export interface BonusAwardRow {
  id: string;
  bonus_rule_id: string;
  campaign_id: string;
  creator_id: string;
  org_id: string;
  amount_micros: Micros;
  threshold_conversions: number;
  progress_count: number;
  fraud_flags: JsonObject;
  status: BonusAwardStatus;
  earned_at: Date;
  reviewed_at: Date | null;
  reviewed_by: string | null;
  review_note: string | null;
  paid_at: Date | null;
  created_at: Date;
  updated_at: Date;
  /** The payout that paid it (migration 0025); set with status `paid`. */
  payout_id: string | null;
}
/**
 * Append-only (DB trigger refuses UPDATE/DELETE). balance = SUM(balance_delta_micros),
 * reserved = SUM(reserved_delta_micros), safe_available = balance - reserved. Signs (DB-enforced):
 * topup +B/0, reserve 0/+R, release 0/-R, reversal 0/-R, payout -B/-R with |R| <= |B|, adjustment any (memo),
 * clawback +B/0 (a creator's clawback netted from a payout: money that stayed in the wallet), rounding any (at most
 * 5 cents, memo: migration 0049's rounding of a row that held a fraction of a cent, naming its commission or award,
 * or neither for a clawback's recovery).
 */
export interface LedgerEntryRow {
  id: number;
  org_id: string;
  entry_type: LedgerEntryType;
  balance_delta_micros: Micros;
  reserved_delta_micros: Micros;
  commission_id: string | null;
  bonus_award_id: string | null;
  idempotency_key: string;
  external_ref: string | null;
  memo: string | null;
  created_by: string | null;
  created_at: Date;
}
export type WalletLedgerRow = LedgerEntryRow;

// ---- agents, OAuth, audit -------------------------------------------------------------------------------
export interface AgentKeyRow {
  id: string;
  org_id: string;
  name: string;
  key_hash: string;
  key_prefix: string;
  scopes: AgentScope[];
  created_by_user_id: string | null;
  created_at: Date;
  last_used_at: Date | null;
  expires_at: Date | null;
  revoked_at: Date | null;
}
export interface OauthClientRow {
  client_id: string;
  metadata: JsonObject;
  created_at: Date;
  updated_at: Date;
}
export interface OauthGrantRow {
  id: string;
  user_id: string;
  client_id: string;
  org_ids: string[];
  scopes: AgentScope[];
  created_at: Date;
  updated_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}
export interface OauthStoreRow {
  model: string;
  id: string;
  payload: JsonObject;
  grant_id: string | null;
  user_code: string | null;
  uid: string | null;
  expires_at: Date | null;
  consumed_at: Date | null;
  created_at: Date;
}
export interface AuditLogRow {
  id: string;
  org_id: string | null;
  actor_type: AuditActorType;
  actor_id: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  details: JsonObject;
  request_id: string | null;
  ip: string | null;
  created_at: Date;
}
export interface ApiIdempotencyKeyRow {
  principal: string;
  idempotency_key: string;
  method: string;
  path: string;
  request_hash: string;
  /** null while the first request is still running */
  status_code: number | null;
  response: unknown;
  created_at: Date;
  completed_at: Date | null;
}

// ---- content and ops ------------------------------------------------------------------------------------
export interface AssetRow {
  id: string;
  app_id: string;
  org_id: string;
  type: string;
  category: string | null;
  title: string | null;
  description: string | null;
  url: string | null;
  storage_key: string | null;
  mime_type: string | null;
  size_bytes: number | null;
  featured: boolean;
  uploaded_by: string | null;
  created_at: Date;
  updated_at: Date;
}
export interface EmailOutboxRow {
  id: string;
  org_id: string | null;
  to_address: string;
  subject: string;
  body_text: string;
  body_html: string | null;
  template: string | null;
  template_data: JsonObject;
  status: EmailStatus;
  attempts: number;
  last_error: string | null;
  next_attempt_at: Date;
  sent_at: Date | null;
  dedup_key: string;
  created_at: Date;
  updated_at: Date;
}
export interface SignedLinkUseRow {
  nonce: string;
  purpose: string;
  org_id: string | null;
  used_at: Date;
  expires_at: Date | null;
}

// ---- payments (migration 0018) --------------------------------------------------------------------------------
export interface PaymentRow {
  id: string;
  org_id: string;
  provider: PaymentProviderName;
  external_id: string | null;
  amount_micros: Micros;
  currency: string;
  status: PaymentStatus;
  confirm_token_hash: string | null;
  link_nonce: string | null;
  credited_micros: Micros | null;
  failure: string | null;
  created_at: Date;
  credited_at: Date | null;
  /** Migration 0020. */
  kind: PaymentKind;
  request_key: string | null;
  /** Migration 0037: when the funds become available in the platform's provider balance (null: not known). */
  available_at: Date | null;
}
export interface AutoRechargeSetupRow {
  id: string;
  org_id: string;
  provider: 'stripe';
  threshold_micros: Micros;
  amount_micros: Micros;
  external_id: string | null;
  status: 'pending' | 'completed' | 'failed';
  failure: string | null;
  created_at: Date;
  completed_at: Date | null;
}

/** Where the next Voided Purchases poll of an Android store-direct app starts (schema 0022). */
export interface PlayVoidedCursorRow {
  app_id: string;
  synced_until_ms: string | null;
  polls: number;
  last_poll_at: Date | null;
  last_error: string | null;
  updated_at: Date;
}
/** A voided Google Play order seen by the poll or a later report, and what became of it (schema 0022). */
export interface PlayVoidedPurchaseRow {
  app_id: string;
  order_id: string;
  purchase_token: string;
  voided_time_ms: string;
  voided_source: number | null;
  voided_reason: number | null;
  refund_type: number | null;
  voided_quantity: number | null;
  kind: ConversionKind | null;
  outcome: 'refund' | 'ignored';
  reason: string | null;
  purchase_event_id: string | null;
  seen: number;
  first_seen_at: Date;
  last_seen_at: Date;
}
// ---- payouts (migration 0019) ---------------------------------------------------------------------------------
export interface PayoutRunRow {
  id: string;
  org_id: string;
  created_by: string | null;
  created_at: Date;
}
export interface PayoutRow {
  id: string;
  run_id: string;
  org_id: string;
  creator_id: string;
  commission_count: number;
  gross_micros: Micros;
  fees_micros: Micros;
  clawbacks_netted_micros: Micros;
  net_micros: Micros;
  created_at: Date;
  /** Award lines (migration 0025): how many approved awards it paid and their sum, part of gross_micros. */
  award_count: number;
  awards_micros: Micros;
  /** Migration 0037: the transfer to the creator's payout account (docs/wallet-and-payouts.md "Two phases"). */
  transfer_status: PayoutTransferStatus;
  transfer_id: string | null;
  transfer_provider: PayoutProviderName | null;
  failure: string | null;
  transferred_at: Date | null;
  returned_at: Date | null;
}
/** transfer_pending: recorded, not sent yet; transferred: the provider's transfer exists; settled: nothing to send
 *  (or sent outside the service before 0037); returned: refused or reversed, its lines payable again. */
export const PAYOUT_TRANSFER_STATUSES = values('transfer_pending', 'transferred', 'settled', 'returned');
export type PayoutTransferStatus = (typeof PAYOUT_TRANSFER_STATUSES)[number];
export const PAYOUT_PROVIDERS = values('test', 'stripe');
export type PayoutProviderName = (typeof PAYOUT_PROVIDERS)[number];
export interface PayoutAccountRow {
  creator_id: string;
  provider: PayoutProviderName;
  external_id: string;
  country: string;
  transfers_active: boolean;
  payouts_enabled: boolean;
  requirements_due: string[];
  disabled_reason: string | null;
  created_at: Date;
  updated_at: Date;
}
export interface PayoutSettingsRow {
  org_id: string;
  minimum_payout_micros: Micros;
  period_hours: number | null;
  updated_by: string | null;
  updated_at: Date;
}
export interface CreatorBankPayoutRow {
  id: string;
  creator_id: string;
  amount_micros: Micros;
  currency: string;
  status: string;
  failure_message: string | null;
  arrival_at: Date | null;
  updated_at: Date;
}
export interface ClawbackRow {
  id: string;
  org_id: string;
  creator_id: string;
  commission_id: string;
  refund_event_id: string;
  amount_micros: Micros;
  recovered_micros: Micros;
  created_at: Date;
  updated_at: Date;
}

/** Table name -> row type, for typed knex access: knex<TableRows['apps']>('apps'). */
export interface TableRows {
  users: UserRow;
  organizations: OrganizationRow;
  memberships: MembershipRow;
  sessions: SessionRow;
  apps: AppRow;
  store_credentials: StoreCredentialRow;
  campaigns: CampaignRow;
  bonus_rules: BonusRuleRow;
  creators: CreatorRow;
  creator_codes: CreatorCodeRow;
  invitations: InvitationRow;
  clicks: ClickRow;
  installs: InstallRow;
  identifies: IdentifyRow;
  user_attributions: UserAttributionRow;
  sdk_events: SdkEventRow;
  free_access_codes: FreeAccessCodeRow;
  free_access_grants: FreeAccessGrantRow;
  free_access_redemptions: FreeAccessRedemptionRow;
  fx_rates: FxRateRow;
  fx_rate_loads: FxRateLoadRow;
  purchase_events: PurchaseEventRow;
  conversions: ConversionRow;
  store_purchase_proofs: StorePurchaseProofRow;
  rejected_webhooks: RejectedWebhookRow;
  purchase_inbox: PurchaseInboxRow;
  raw_intake: RawIntakeRow;
  commissions: CommissionRow;
  commission_reviews: CommissionReviewRow;
  bonus_awards: BonusAwardRow;
  wallet_ledger: LedgerEntryRow;
  agent_keys: AgentKeyRow;
  oauth_clients: OauthClientRow;
  oauth_grants: OauthGrantRow;
  oauth_store: OauthStoreRow;
  audit_log: AuditLogRow;
  api_idempotency_keys: ApiIdempotencyKeyRow;
  assets: AssetRow;
  email_outbox: EmailOutboxRow;
  signed_link_uses: SignedLinkUseRow;
  payments: PaymentRow;
  play_voided_cursors: PlayVoidedCursorRow;
  play_voided_purchases: PlayVoidedPurchaseRow;
  payout_runs: PayoutRunRow;
  payouts: PayoutRow;
  clawbacks: ClawbackRow;
  auto_recharge_setups: AutoRechargeSetupRow;
}

// ---- dashboard accounts (migration 0021) ----------------------------------------------------------------------
export type AccountTokenPurpose = 'verify_email' | 'reset_password' | 'invite';
export interface AccountTokenRow {
  id: string;
  purpose: AccountTokenPurpose;
  token_hash: string;
  user_id: string | null;
  email: string;
  org_id: string | null;
  role: MembershipRole | null;
  created_by_user_id: string | null;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}
