// The public types of both entries (web and React Native), from the client API and the client-side rules.
// Inputs are camelCase; results keep the server's snake_case (rule 14), except checkAccess, whose `hasAccess`
// rules 3 and 9 spell in camelCase. sdk-registry's scaffolds are type-checked against these.
export type ClientPlatform = 'ios' | 'android' | 'web';
export type CodeErrorCode = 'INVALID_FORMAT' | 'CODE_NOT_FOUND' | 'CODE_EXPIRED' | 'MISSING_USER_ID' | 'NETWORK_ERROR';

/**
 * Rule 6: set on attribution and code application; `svc_referral` is the string "true", never a boolean. A type
 * alias, not an interface, so it is assignable to the providers' `{ [key: string]: string }` attribute maps.
 */
export type SubscriberAttributes = { svc_code: string; svc_referral: 'true' };
export type SubscriberAttributesSetter = (attributes: SubscriberAttributes) => void | Promise<void>;

export interface BaseConfig {
  /** The app's public SDK key (`it_...`). */
  apiKey: string;
  /** Default `{base_url}/api`; override for testing. */
  baseUrl?: string;
  /** Store-direct only: false when the host reports purchases itself (rule 8). */
  autoCapture?: boolean;
  /** Optional subscription-provider integration (rule 6). */
  setSubscriberAttributes?: SubscriberAttributesSetter;
  /** Store-direct hosts: the store library, adapted; what auto capture and syncPurchases read (rules 1, 8, 12). */
  purchaseSource?: PurchaseSource;
  /** Sent as `app_version` on init; `unknown` when absent. */
  appVersion?: string;
  /** The Android install-referrer string (rule 13), when the host read it from Google Play. */
  installReferrer?: string;
  /** Per request; default 15000. */
  timeoutMs?: number;
  debug?: boolean;
}

/**
 * The Play Install Referrer's times by Play's own names (what referrer plugins answer beside the string): seconds
 * since the epoch, 0 unknown. A value the service would refuse (negative, fractional, after 2100) is sent as 0.
 */
export interface InstallReferrerTimes {
  referrerClickTimestampSeconds?: number;
  installBeginTimestampSeconds?: number;
  installBeginTimestampServerSeconds?: number;
}

/**
 * The host's store library seen through two calls, so the SDK needs no native module. `getPurchases` lists the
 * store's purchases (back-sync, rule 12); `onPurchase` reports new ones as they complete (auto capture, rule 1)
 * and returns an unsubscribe function.
 */
export interface PurchaseSource {
  getPurchases(): Promise<PurchaseReport[]>;
  onPurchase?(listener: (purchase: PurchaseReport) => void): () => void;
}

export interface CampaignSummary {
  id: string;
  name: string;
  description: string | null;
}
export interface InitResult {
  app_id: string;
  app_name: string;
  attribution_window_hours: number;
  campaigns: CampaignSummary[];
  store_direct: boolean;
  initialized: boolean;
}

export interface AttributionResult {
  attributed: boolean;
  referral_code?: string | null;
  attribution_method?: 'link_param' | 'ip_device_match';
  clicked_at?: string;
  click_id?: string;
  install_recorded?: boolean;
  re_claimed?: boolean;
  message?: string;
}

export interface IdentifyResult {
  identified: boolean;
  app_user_id: string;
  attribution_backfilled: boolean;
  deduplicated?: boolean;
}

export interface TrackEventInput {
  eventType: string;
  /** Defaults to the identified user. */
  appUserId?: string;
  properties?: Record<string, unknown>;
  referralCode?: string;
  /** Generated when absent (rule 5). */
  eventId?: string;
}
export interface TrackEventResult {
  tracked: boolean;
  event_id?: string;
  duplicate?: boolean;
  dedup_reason?: string;
}

export interface CodeCampaign {
  id: string;
  name: string;
  description: string | null;
  commission_percentage: number;
  campaign_type: 'public' | 'private' | 'invite_only' | 'FREE_ACCESS';
}
export interface Influencer {
  name: string;
  social_handle: string | null;
  follower_count: number | null;
}

export interface ValidationResult {
  valid: boolean;
  code?: string;
  campaign?: CodeCampaign;
  influencer?: Influencer | null;
  custom_data?: unknown;
  message?: string;
  error?: string;
  error_code?: CodeErrorCode;
}

export interface SetReferralCodeResult {
  success: boolean;
  code?: string;
  message?: string;
  campaign?: { id: string; name: string };
  already_attributed?: boolean;
  free_access?: boolean;
  grants_access?: boolean;
  already_granted?: boolean;
  entitlement?: string;
  access_duration_years?: number | null;
  access_duration_days?: number | null;
  expires_at?: string;
  rc_grant?: { attempted: boolean; ok: boolean; error: string | null };
  error?: string;
  error_code?: CodeErrorCode;
}

/** Rule 10: validate then set; adds `applied`; no free-access fields. */
export interface ApplyCodeResult {
  applied: boolean;
  valid: boolean;
  success: boolean;
  code?: string;
  campaign?: CodeCampaign;
  influencer?: Influencer | null;
  message?: string;
  error?: string;
  error_code?: CodeErrorCode;
}

export interface AccessResult {
  hasAccess: boolean;
  source: 'comp' | null;
  entitlement: string | null;
  expiresAt: string | null;
  code: string | null;
}

export interface PurchaseReport {
  platform: 'ios' | 'android';
  /** iOS: the signed JWS string, not decoded JSON. */
  signedTransaction?: string;
  /** Android. */
  purchaseToken?: string;
  /** Android one-time products only (with price and currency). */
  productId?: string;
  price?: number;
  currency?: string;
  /** Defaults to the stored code on the first transaction (rule 7). */
  referralCode?: string;
  appUserId?: string;
}
/** The answer of POST /api/sdk/purchase (spec), exactly: the server's store-purchase workflow answers this type. */
export interface PurchaseResult {
  success: boolean;
  /** The store verifier's name (app_store, google_play): a string, never a boolean. */
  validated: string;
  environment: 'PRODUCTION' | 'SANDBOX';
  event_type: string;
  /** Every event of the report was recorded before (double reporting is safe). */
  duplicate: boolean;
  /** The event is in the purchase event log (by this report or an earlier one). */
  recorded: boolean;
  /** processed: the conversion pipeline applied it (false when it was recorded with a processing error). */
  result: { processed: boolean; event_id: string };
}
export interface SyncResult {
  fetched: number;
  sent: number;
  failed: number;
}
export interface ActiveCampaign {
  id: string;
  name: string;
  description: string | null;
  commission_percentage: number;
}

export interface BaseClient<Config extends BaseConfig> {
  /** Posts init and persists @svc/initialized; throws on failure (rule 1). */
  initialize(config: Config): Promise<InitResult>;
  checkAttribution(): Promise<AttributionResult>;
  identify(appUserId: string, properties?: Record<string, unknown>): Promise<IdentifyResult>;
  trackEvent(event: TrackEventInput): Promise<TrackEventResult>;
  validateCode(code: string): Promise<ValidationResult>;
  setReferralCode(code: string, appUserId?: string): Promise<SetReferralCodeResult>;
  applyCode(code: string): Promise<ApplyCodeResult>;
  /** The stored code (@svc/svc_code), kept only after the server accepted it. */
  getReferralCode(): Promise<string | null>;
  checkAccess(appUserId?: string): Promise<AccessResult>;
  /** Throws on failure; SvcError.retryable for 503. */
  reportPurchase(purchase: PurchaseReport): Promise<PurchaseResult>;
  /** Rule 12: sends store purchases not yet reported. */
  syncPurchases(): Promise<SyncResult>;
  clearAttribution(): Promise<void>;
  getActiveCampaigns(): Promise<ActiveCampaign[]>;
}
