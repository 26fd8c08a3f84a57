// The Android SDK 1.1.1: every client-side rule of the wire contract (spec "Client-side rules pinned by the wire
// contract", rules 1-14), as packages/sdk/src/client.ts keeps them for web and React Native. Each public call is a
// suspend function whose work runs on the SDK's own single thread, never the caller's: HTTP and storage never
// touch the main thread, and calls run one at a time in order (a double initialize or checkAttribution sends one
// request; the second is answered from memory or storage).
package com.svc.attribution

import java.util.concurrent.ScheduledThreadPoolExecutor
import java.util.concurrent.ThreadFactory
import java.util.concurrent.TimeUnit
import kotlin.coroutines.resumeWithException
import kotlin.coroutines.suspendCoroutine

/** The default client an app uses: `Svc.initialize(store, config)`, then any call. */
object Svc : SvcClient()

open class SvcClient @JvmOverloads constructor(
    /** Replaces HttpURLConnection (tests; an app's own HTTP stack). */
    private val http: HttpTransport? = null,
    /** Milliseconds since the epoch (the access cache's clock). */
    private val clock: () -> Long = { System.currentTimeMillis() },
) {
    companion object {
        const val SDK_VERSION = "1.1.1"
        const val SDK_NAME = "android"
        const val PLATFORM = "android"
        private const val ACCESS_TTL_MS = 5 * 60_000L
        private const val MAX_RETRY_DELAY_MS = 5 * 60_000L
        private val NO_ACCESS = AccessResult(false)
        internal fun normalize(code: String): String = code.trim().uppercase()
    }

    private val executor = ScheduledThreadPoolExecutor(1, ThreadFactory { r -> Thread(r, "svc-sdk").apply { isDaemon = true } })

    private class State(val config: SvcConfig, val store: KeyValueStore, val transport: Transport, val outbox: Outbox)

    private var state: State? = null
    private var initResult: InitResult? = null
    private var storeDirect = false
    private var launch: LaunchParams? = null
    private var referrerTimes: Map<String, Long>? = null
    private var stopCapture: (() -> Unit)? = null
    private var retryDelay = 0L
    private var retryScheduled = false

    private suspend fun <T> onSdkThread(block: () -> T): T = suspendCoroutine { cont ->
        try {
            executor.execute { cont.resumeWith(runCatching(block)) }
        } catch (e: Exception) {
            cont.resumeWithException(e)
        }
    }

    private fun ready(): State = state ?: throw SvcException("svc: call initialize first", null)

    private fun readObject(store: KeyValueStore, key: String): Map<String, Any?>? =
        try { asObject(store.get(key)?.let { Json.parse(it) }) } catch (e: JsonException) { null }

    private fun setAttributes(code: String) {
        val setter = state?.config?.setSubscriberAttributes ?: return
        // Rule 6: svc_referral is the string "true", never a boolean; a failing provider never breaks attribution.
        try { setter(mapOf("svc_code" to normalize(code), "svc_referral" to "true")) } catch (e: Exception) { }
    }

    private fun installId(store: KeyValueStore): String =
        store.get(Keys.INSTALL_ID) ?: Ids.uuidV4().also { store.set(Keys.INSTALL_ID, it) } // persisted before it is sent

    /** Rule 1: posts init, persists @svc/initialized; the only init-time call that throws (SvcException). */
    suspend fun initialize(store: KeyValueStore, config: SvcConfig): InitResult = onSdkThread {
        require(config.apiKey.isNotBlank()) { "svc: apiKey required" }
        val known = state
        val done = initResult
        if (done != null && known != null && known.config.apiKey == config.apiKey && known.config.baseUrl == config.baseUrl && known.store === store) {
            return@onSdkThread done
        }
        val transport = Transport(config.baseUrl, config.apiKey, http ?: UrlConnectionTransport(config.timeoutMs))
        state = State(config, store, transport, Outbox(store))
        initResult = null
        // Rule 13: a code from the install referrer replaces a stored organic result (an attributed one stays).
        val referrer = try { config.installReferrer?.details() } catch (e: Exception) { null }
        launch = try { InstallReferrer.parse(referrer?.installReferrer) } catch (e: Exception) { null }
        referrerTimes = InstallReferrer.times(referrer)
        if (launch != null && readObject(store, Keys.ATTRIBUTION)?.bool("attributed") == false) store.remove(Keys.ATTRIBUTION)
        val res = Results.init(
            transport.obj(
                "POST",
                "/sdk/init",
                fields("app_version" to (config.appVersion ?: "unknown"), "sdk_version" to SDK_VERSION, "platform" to PLATFORM, "sdk_name" to SDK_NAME),
            ),
        )
        store.set(Keys.INITIALIZED, "true")
        storeDirect = res.storeDirect
        stopCapture?.invoke()
        stopCapture = null
        // Rule 1: auto capture only on a store-direct platform, and only when the host does not report itself (rule 8).
        val source = config.purchaseSource
        if (storeDirect && config.autoCapture && source != null) {
            stopCapture = source.onPurchase { p -> executor.execute { if (!isSent(p.storeId)) runCatching { reportNow(p) } } }
        }
        initResult = res
        runCatching { flushNow() }
        res
    }

    /** Rule 2: the cached @svc/attribution, else track-install (attributed and organic both stored); fail-soft. */
    suspend fun checkAttribution(): AttributionResult = onSdkThread {
        val s = state ?: return@onSdkThread AttributionResult(false, message = "svc: call initialize first")
        readObject(s.store, Keys.ATTRIBUTION)?.let { return@onSdkThread Results.attribution(it) }
        val hints = LinkedHashMap<String, Any?>(s.config.deviceHints)
        hints["platform"] = PLATFORM
        hints["device_id"] = installId(s.store)
        hints.putAll(fields("timezone" to java.util.TimeZone.getDefault().id, "language" to java.util.Locale.getDefault().toLanguageTag()))
        launch?.let { hints["referral_code"] = it.code; if (it.clickId != null) hints["click_id"] = it.clickId }
        referrerTimes?.let { hints["install_referrer"] = it } // Play's times: the click-injection check
        val raw = try {
            s.transport.obj("POST", "/sdk/track-install", hints)
        } catch (e: SvcException) {
            return@onSdkThread AttributionResult(false, message = e.message) // nothing stored on failure
        }
        s.store.set(Keys.ATTRIBUTION, Json.write(raw))
        val res = Results.attribution(raw)
        if (res.attributed && res.referralCode != null) {
            s.store.set(Keys.CODE, normalize(res.referralCode))
            setAttributes(res.referralCode)
        }
        res
    }

    suspend fun identify(appUserId: String, properties: Map<String, Any?>? = null): IdentifyResult = onSdkThread {
        fun fail(m: String?) = IdentifyResult(false, appUserId, false, message = m)
        val s = state ?: return@onSdkThread fail("svc: call initialize first")
        if (appUserId.isEmpty()) return@onSdkThread fail("svc: empty user id")
        s.store.set(Keys.APP_USER_ID, appUserId)
        try {
            val body = fields("app_user_id" to appUserId, "properties" to properties, "device_id" to installId(s.store), "platform" to PLATFORM)
            Results.identify(s.transport.obj("POST", "/sdk/identify", body), appUserId)
        } catch (e: SvcException) {
            fail(e.message)
        }
    }

    /** Rule 5: a UUID v4 event id when absent; funnel milestones derive theirs. Kept in the outbox until answered. */
    suspend fun trackEvent(
        eventType: String,
        appUserId: String? = null,
        properties: Map<String, Any?> = emptyMap(),
        referralCode: String? = null,
        eventId: String? = null,
    ): TrackEventResult = onSdkThread {
        val s = state ?: return@onSdkThread TrackEventResult(false)
        val user = appUserId ?: s.store.get(Keys.APP_USER_ID)
        if (user.isNullOrEmpty() || eventType.isEmpty()) return@onSdkThread TrackEventResult(false)
        val code = referralCode?.let(::normalize) ?: s.store.get(Keys.CODE)
        val id = eventId ?: Ids.derivedEventId(eventType, user, properties) ?: Ids.uuidV4()
        val body = fields(
            "eventType" to eventType, "appUserId" to user, "properties" to properties, "referralCode" to code, "eventId" to id, "platform" to PLATFORM,
        )
        sendEvent(s, id, s.outbox.put(Outbox.Kind.EVENTS, id, body))
    }

    private fun sendEvent(s: State, id: String, body: Map<String, Any?>): TrackEventResult = try {
        val res = Results.event(s.transport.obj("POST", "/sdk/event", body), id)
        s.outbox.remove(Outbox.Kind.EVENTS, id)
        retryDelay = 0
        res
    } catch (e: SvcException) {
        if (e.retryable) scheduleRetry() else s.outbox.remove(Outbox.Kind.EVENTS, id) // refused for good (422)
        TrackEventResult(false, id)
    }

    /** Rule 3: fail-soft, `errorCode` NETWORK_ERROR without an answer. Rule 4: trimmed and uppercased. */
    suspend fun validateCode(code: String): ValidationResult = onSdkThread { validateNow(code) }

    private fun validateNow(code: String): ValidationResult = try {
        Results.validation(ready().transport.obj("POST", "/sdk/validate-code", fields("code" to normalize(code))))
    } catch (e: SvcException) {
        ValidationResult(false, error = e.message, errorCode = CodeErrorCode.NETWORK_ERROR)
    }

    /** Rule 10: the code is kept only after success; a free-access code defaults to the identified user. */
    suspend fun setReferralCode(code: String, appUserId: String? = null): SetReferralCodeResult = onSdkThread { setCodeNow(code, appUserId) }

    private fun setCodeNow(code: String, appUserId: String?): SetReferralCodeResult = try {
        val s = ready()
        val user = appUserId ?: s.store.get(Keys.APP_USER_ID)
        val res = Results.setCode(s.transport.obj("POST", "/sdk/set-referral-code", fields("code" to normalize(code), "app_user_id" to user)))
        if (res.success && res.freeAccess) s.store.remove(Keys.ACCESS) // the next checkAccess asks again
        if (res.success && !res.freeAccess && res.code != null) {
            s.store.set(Keys.CODE, normalize(res.code))
            setAttributes(res.code)
        }
        res
    } catch (e: SvcException) {
        val errorCode = when (e.status) {
            404 -> CodeErrorCode.CODE_NOT_FOUND
            null -> CodeErrorCode.NETWORK_ERROR
            else -> null
        }
        SetReferralCodeResult(false, error = e.message, errorCode = errorCode)
    }

    /** Rule 10: validate then set; adds `applied`; no free-access fields. */
    suspend fun applyCode(code: String): ApplyCodeResult = onSdkThread {
        val v = validateNow(code)
        if (!v.valid) {
            return@onSdkThread ApplyCodeResult(false, false, false, v.code ?: normalize(code), v.campaign, v.influencer, v.message, v.error, v.errorCode)
        }
        val set = setCodeNow(code, null)
        ApplyCodeResult(set.success, true, set.success, set.code ?: v.code, v.campaign, v.influencer, set.message ?: v.message, set.error, set.errorCode)
    }

    /** The stored creator code (@svc/svc_code), kept only after the server accepted it. */
    suspend fun getReferralCode(): String? = onSdkThread { state?.store?.get(Keys.CODE) }

    suspend fun getAppUserId(): String? = onSdkThread { state?.store?.get(Keys.APP_USER_ID) }

    /** Rule 9: a positive answer cached 5 minutes, a negative one never; no request without a user id. */
    suspend fun checkAccess(appUserId: String? = null): AccessResult = onSdkThread {
        val s = state ?: return@onSdkThread NO_ACCESS
        val user = appUserId ?: s.store.get(Keys.APP_USER_ID) ?: return@onSdkThread NO_ACCESS
        val cached = readObject(s.store, Keys.ACCESS)
        val cachedAt = cached?.num("cached_at")?.toLong()
        val cachedResult = cached?.obj("result")?.let(Results::accessFromJson)
        if (cached?.str("app_user_id") == user && cachedResult?.hasAccess == true && cachedAt != null && clock() - cachedAt < ACCESS_TTL_MS) {
            return@onSdkThread cachedResult
        }
        try {
            val res = Results.access(s.transport.obj("GET", "/sdk/access?app_user_id=" + java.net.URLEncoder.encode(user, "UTF-8")))
            if (res.hasAccess) {
                s.store.set(Keys.ACCESS, Json.write(mapOf("app_user_id" to user, "cached_at" to clock(), "result" to Results.accessJson(res))))
            } else {
                s.store.remove(Keys.ACCESS)
            }
            res
        } catch (e: SvcException) {
            NO_ACCESS
        }
    }

    /** Rule 7: the value for BillingFlowParams.Builder().setObfuscatedAccountId (SHA-256 hex of the user id). */
    fun obfuscatedAccountId(appUserId: String): String = Ids.obfuscatedAccountId(appUserId)

    /** Throws SvcException; `retryable` (503: exchange rate unavailable, or no answer) stays in the outbox and is sent again. */
    suspend fun reportPurchase(purchase: PurchaseReport): PurchaseResult = onSdkThread { reportNow(purchase) }

    private fun sentSet(store: KeyValueStore): List<String> =
        try { (store.get(Keys.REPORTED_PURCHASES)?.let { Json.parse(it) } as? List<*>)?.map { it.toString() } } catch (e: JsonException) { null } ?: emptyList()

    private fun isSent(storeId: String): Boolean = state?.let { storeId in sentSet(it.store) } == true

    private fun reportNow(p: PurchaseReport): PurchaseResult {
        val s = ready()
        // Rule 7: the stored code goes with the first transaction, where it binds the purchase to the creator.
        val code = p.referralCode?.let(::normalize) ?: if (sentSet(s.store).isEmpty()) s.store.get(Keys.CODE) else null
        val body = fields(
            "platform" to PLATFORM,
            "purchaseToken" to p.purchaseToken,
            "productId" to p.productId,
            "price" to p.price,
            "currency" to p.currency,
            "referralCode" to code,
            "appUserId" to (p.appUserId ?: s.store.get(Keys.APP_USER_ID)),
        )
        return sendPurchase(s, p.storeId, s.outbox.put(Outbox.Kind.PURCHASES, p.storeId, body))
    }

    private fun sendPurchase(s: State, storeId: String, body: Map<String, Any?>): PurchaseResult {
        try {
            val res = Results.purchase(s.transport.obj("POST", "/sdk/purchase", body))
            val sent = sentSet(s.store)
            if (storeId !in sent) s.store.set(Keys.REPORTED_PURCHASES, Json.write(sent + storeId))
            s.outbox.remove(Outbox.Kind.PURCHASES, storeId)
            retryDelay = 0
            return res
        } catch (e: SvcException) {
            if (e.retryable) scheduleRetry() else s.outbox.remove(Outbox.Kind.PURCHASES, storeId)
            throw e
        }
    }

    /** Rule 12: back-sync; `sent` excludes purchases already in the sent-set. Only on a store-direct app. */
    suspend fun syncPurchases(): SyncResult = onSdkThread {
        val source = state?.config?.purchaseSource
        if (state == null || !storeDirect || source == null) return@onSdkThread SyncResult(0, 0, 0)
        val purchases = try { source.getPurchases() } catch (e: Exception) { return@onSdkThread SyncResult(0, 0, 0) }
        var sent = 0
        var failed = 0
        for (p in purchases) {
            if (isSent(p.storeId)) continue
            try {
                reportNow(p)
                sent++
            } catch (e: SvcException) {
                failed++
            }
        }
        SyncResult(purchases.size, sent, failed)
    }

    /** Rule 11: removes attribution, code and user id; the sent-set, install id and the rest stay. */
    suspend fun clearAttribution(): Unit = onSdkThread {
        launch = null
        state?.store?.let { store -> Keys.CLEARED.forEach(store::remove) }
    }

    /** Rule 3: [] on any failure. */
    suspend fun getActiveCampaigns(): List<ActiveCampaign> = onSdkThread {
        try { Results.campaigns(ready().transport.call("GET", "/sdk/campaigns") as? List<Any?> ?: emptyList()) } catch (e: SvcException) { emptyList() }
    }

    /** Sends what a killed or offline process left in @svc/outbox (initialize and the retry timer do this too). */
    suspend fun flush(): FlushResult = onSdkThread { flushNow() }

    private fun flushNow(): FlushResult {
        val s = ready()
        var events = 0
        var purchases = 0
        for ((id, body) in s.outbox.pending(Outbox.Kind.EVENTS)) if (sendEvent(s, id, body).tracked) events++
        for ((id, body) in s.outbox.pending(Outbox.Kind.PURCHASES)) {
            try {
                sendPurchase(s, id, body)
                purchases++
            } catch (e: SvcException) {
                // still pending (retryable) or dropped (refused); the host's own call reported the error
            }
        }
        return FlushResult(events, purchases)
    }

    /** After a retryable failure the outbox is sent again: the first wait from the config, doubled up to 5 minutes. */
    private fun scheduleRetry() {
        val s = state ?: return
        if (retryScheduled) return
        retryDelay = if (retryDelay == 0L) s.config.retryDelayMs else minOf(retryDelay * 2, MAX_RETRY_DELAY_MS)
        retryScheduled = true
        executor.schedule({
            retryScheduled = false
            runCatching { flushNow() }
        }, retryDelay, TimeUnit.MILLISECONDS)
    }
}
