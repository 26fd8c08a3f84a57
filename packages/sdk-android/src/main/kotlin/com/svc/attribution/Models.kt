// The public types. Rule 14: Android results are camelCase (the server's snake_case names converted one for one);
// error codes are an enum that maps unrecognized values to UNKNOWN (spec "Errors").
package com.svc.attribution

/** The app's settings; the platform pieces are passed beside it to initialize. */
data class SvcConfig(
    /** The app's public SDK key (`it_...`). */
    val apiKey: String,
    /** `{base_url}/api`; override for a local `svc dev` (the emulator reaches the host at 10.0.2.2). */
    val baseUrl: String = DEFAULT_BASE_URL,
    /** Store-direct only: false when the host reports purchases itself (rules 1 and 8). */
    val autoCapture: Boolean = true,
    /** Rule 6: the subscription provider's attribute setter; receives svc_code and svc_referral = "true". */
    val setSubscriberAttributes: ((Map<String, String>) -> Unit)? = null,
    /** Store-direct: the Play Billing purchases (auto capture, back-sync). */
    val purchaseSource: PurchaseSource? = null,
    /** Rule 13: the Play Install Referrer value (and, through `details`, Play's times for track-install). */
    val installReferrer: InstallReferrerSource? = null,
    /** Sent as `app_version` on init; `unknown` when absent. */
    val appVersion: String? = null,
    /** track-install's device hints (device_brand, device_model, os_version, screen_resolution); timezone and language are added. */
    val deviceHints: Map<String, String> = emptyMap(),
    val timeoutMs: Int = 15_000,
    /** The first wait before the outbox is sent again after a retryable failure; doubled each time up to 5 minutes. */
    val retryDelayMs: Long = 30_000,
) {
    companion object {
        /** A placeholder as in the TypeScript SDK: the spec gives `{base_url}/api`; every scaffold passes baseUrl. */
        const val DEFAULT_BASE_URL = "https://svc.example.com/api"
    }
}

enum class CodeErrorCode {
    INVALID_FORMAT, CODE_NOT_FOUND, CODE_EXPIRED, MISSING_USER_ID, NETWORK_ERROR, UNKNOWN;

    companion object {
        fun of(value: String?): CodeErrorCode? = value?.let { v -> values().firstOrNull { it.name == v } ?: UNKNOWN }
    }
}

/** What initialize and reportPurchase throw: `status` null for a network failure; `retryable` for 5xx, 429 and no answer. */
class SvcException(message: String, val status: Int?, val detail: Any? = null) : Exception(message) {
    val retryable: Boolean get() = status == null || status == 429 || status >= 500
}

data class CampaignSummary(val id: String, val name: String, val description: String?)

data class InitResult(
    val appId: String,
    val appName: String,
    val attributionWindowHours: Int,
    val campaigns: List<CampaignSummary>,
    val storeDirect: Boolean,
    val initialized: Boolean,
)

data class AttributionResult(
    val attributed: Boolean,
    val referralCode: String? = null,
    val attributionMethod: String? = null,
    val clickedAt: String? = null,
    val clickId: String? = null,
    val installRecorded: Boolean? = null,
    val reClaimed: Boolean? = null,
    val message: String? = null,
)

data class IdentifyResult(
    val identified: Boolean,
    val appUserId: String,
    val attributionBackfilled: Boolean,
    val deduplicated: Boolean = false,
    val message: String? = null,
)

data class TrackEventResult(
    val tracked: Boolean,
    val eventId: String? = null,
    val duplicate: Boolean = false,
    val dedupReason: String? = null,
)

data class CodeCampaign(
    val id: String,
    val name: String,
    val description: String?,
    val commissionPercentage: Double,
    val campaignType: String,
)

data class Influencer(val name: String?, val socialHandle: String?, val followerCount: Long?)

data class ValidationResult(
    val valid: Boolean,
    val code: String? = null,
    val campaign: CodeCampaign? = null,
    val influencer: Influencer? = null,
    val customData: Any? = null,
    val message: String? = null,
    val error: String? = null,
    val errorCode: CodeErrorCode? = null,
)

data class RcGrant(val attempted: Boolean, val ok: Boolean, val error: String?)

data class SetReferralCodeResult(
    val success: Boolean,
    val code: String? = null,
    val message: String? = null,
    val campaignId: String? = null,
    val campaignName: String? = null,
    val alreadyAttributed: Boolean = false,
    val freeAccess: Boolean = false,
    val grantsAccess: Boolean? = null,
    val alreadyGranted: Boolean? = null,
    val entitlement: String? = null,
    val accessDurationYears: Long? = null,
    val accessDurationDays: Long? = null,
    val expiresAt: String? = null,
    val rcGrant: RcGrant? = null,
    val error: String? = null,
    val errorCode: CodeErrorCode? = null,
)

/** Rule 10: validate then set; adds `applied`; no free-access fields. */
data class ApplyCodeResult(
    val applied: Boolean,
    val valid: Boolean,
    val success: Boolean,
    val code: String?,
    val campaign: CodeCampaign? = null,
    val influencer: Influencer? = null,
    val message: String? = null,
    val error: String? = null,
    val errorCode: CodeErrorCode? = null,
)

data class AccessResult(
    val hasAccess: Boolean,
    val source: String? = null,
    val entitlement: String? = null,
    val expiresAt: String? = null,
    val code: String? = null,
)

/** A Play Billing purchase to report (store-direct). One-time products add product id, price (major units) and currency. */
data class PurchaseReport(
    val purchaseToken: String,
    val productId: String? = null,
    val price: Double? = null,
    val currency: String? = null,
    /** Defaults to the stored code on the first transaction (rule 7). */
    val referralCode: String? = null,
    /** Defaults to the identified user. */
    val appUserId: String? = null,
) {
    /** The sent-set and outbox key (rule 8): the purchase token, with the product id for one-time products. */
    val storeId: String get() = "android:" + (if (productId != null) "$productId:" else "") + purchaseToken
}

data class PurchaseResult(
    val success: Boolean,
    /** The store verifier's name (google_play): a string, never a boolean. */
    val validated: String,
    val environment: String,
    val eventType: String,
    val duplicate: Boolean,
    val recorded: Boolean,
    val result: PurchaseProcessing,
)

data class PurchaseProcessing(val processed: Boolean, val eventId: String?)

data class SyncResult(val fetched: Int, val sent: Int, val failed: Int)

data class ActiveCampaign(val id: String, val name: String, val description: String?, val commissionPercentage: Double)

data class FlushResult(val events: Int, val purchases: Int)
