// The server's snake_case answers read into the camelCase results of rule 14, one reader per answer.
package com.svc.attribution

internal object Results {
    private fun Map<String, Any?>.int(key: String): Int? = num(key)?.toInt()
    private fun Map<String, Any?>.long(key: String): Long? = num(key)?.toLong()

    fun init(o: Map<String, Any?>) = InitResult(
        appId = o.str("app_id") ?: "",
        appName = o.str("app_name") ?: "",
        attributionWindowHours = o.int("attribution_window_hours") ?: 0,
        campaigns = (o.list("campaigns") ?: emptyList()).mapNotNull(::asObject).map {
            CampaignSummary(it.str("id") ?: "", it.str("name") ?: "", it.str("description"))
        },
        storeDirect = o.bool("store_direct") == true,
        initialized = o.bool("initialized") == true,
    )

    fun attribution(o: Map<String, Any?>) = AttributionResult(
        attributed = o.bool("attributed") == true,
        referralCode = o.str("referral_code"),
        attributionMethod = o.str("attribution_method"),
        clickedAt = o.str("clicked_at"),
        clickId = o.str("click_id"),
        installRecorded = o.bool("install_recorded"),
        reClaimed = o.bool("re_claimed"),
        message = o.str("message"),
    )

    fun identify(o: Map<String, Any?>, user: String) = IdentifyResult(
        identified = o.bool("identified") == true,
        appUserId = o.str("app_user_id") ?: user,
        attributionBackfilled = o.bool("attribution_backfilled") == true,
        deduplicated = o.bool("deduplicated") == true,
    )

    fun event(o: Map<String, Any?>, id: String) = TrackEventResult(
        tracked = o.bool("tracked") == true,
        eventId = o.str("event_id") ?: id,
        duplicate = o.bool("duplicate") == true,
        dedupReason = o.str("dedup_reason"),
    )

    private fun campaign(o: Map<String, Any?>?) = o?.let {
        CodeCampaign(
            id = it.str("id") ?: "",
            name = it.str("name") ?: "",
            description = it.str("description"),
            commissionPercentage = it.num("commission_percentage")?.toDouble() ?: 0.0,
            campaignType = it.str("campaign_type") ?: "",
        )
    }

    private fun influencer(o: Map<String, Any?>?) = o?.let { Influencer(it.str("name"), it.str("social_handle"), it.long("follower_count")) }

    fun validation(o: Map<String, Any?>) = ValidationResult(
        valid = o.bool("valid") == true,
        code = o.str("code"),
        campaign = campaign(o.obj("campaign")),
        influencer = influencer(o.obj("influencer")),
        customData = o["custom_data"],
        message = o.str("message"),
        error = o.str("error"),
        errorCode = CodeErrorCode.of(o.str("error_code")),
    )

    fun setCode(o: Map<String, Any?>) = SetReferralCodeResult(
        success = o.bool("success") == true,
        code = o.str("code"),
        message = o.str("message"),
        campaignId = o.obj("campaign")?.str("id"),
        campaignName = o.obj("campaign")?.str("name"),
        alreadyAttributed = o.bool("already_attributed") == true,
        freeAccess = o.bool("free_access") == true,
        grantsAccess = o.bool("grants_access"),
        alreadyGranted = o.bool("already_granted"),
        entitlement = o.str("entitlement"),
        accessDurationYears = o.long("access_duration_years"),
        accessDurationDays = o.long("access_duration_days"),
        expiresAt = o.str("expires_at"),
        rcGrant = o.obj("rc_grant")?.let { RcGrant(it.bool("attempted") == true, it.bool("ok") == true, it.str("error")) },
        error = o.str("error"),
        errorCode = CodeErrorCode.of(o.str("error_code")),
    )

    fun access(o: Map<String, Any?>) =
        if (o.bool("has_access") != true) AccessResult(false)
        else AccessResult(true, o.str("source"), o.str("entitlement"), o.str("expires_at"), o.str("code"))

    /** The cached form under @svc/access (the TypeScript SDK's layout: camelCase result). */
    fun accessJson(a: AccessResult): Map<String, Any?> =
        mapOf("hasAccess" to a.hasAccess, "source" to a.source, "entitlement" to a.entitlement, "expiresAt" to a.expiresAt, "code" to a.code)

    fun accessFromJson(o: Map<String, Any?>) =
        AccessResult(o.bool("hasAccess") == true, o.str("source"), o.str("entitlement"), o.str("expiresAt"), o.str("code"))

    fun purchase(o: Map<String, Any?>) = PurchaseResult(
        success = o.bool("success") == true,
        validated = o["validated"]?.toString() ?: "",
        environment = o.str("environment") ?: "",
        eventType = o.str("event_type") ?: "",
        duplicate = o.bool("duplicate") == true,
        recorded = o.bool("recorded") == true,
        result = PurchaseProcessing(o.obj("result")?.bool("processed") == true, o.obj("result")?.str("event_id")),
    )

    fun campaigns(list: List<Any?>) = list.mapNotNull(::asObject).map {
        ActiveCampaign(it.str("id") ?: "", it.str("name") ?: "", it.str("description"), it.num("commission_percentage")?.toDouble() ?: 0.0)
    }
}
