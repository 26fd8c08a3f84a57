// The client-side rules of the wire contract (spec rules 1-14) on the JVM, the network scripted (FakeHttp): each test
// fails when its rule breaks. The same rules against the real service: src/contract (test/integration/sdk-android.test.ts).
package com.svc.attribution

import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertNotNull
import org.junit.Assert.assertNull
import org.junit.Assert.assertTrue
import org.junit.Assert.fail
import org.junit.Test

class RulesTest {
    private fun started(http: FakeHttp = FakeHttp.standard(), store: MemoryStore = MemoryStore(), cfg: SvcConfig = config(), clock: () -> Long = { 0L }): SvcClient {
        val client = SvcClient(http, clock)
        blocking { client.initialize(store, cfg) }
        return client
    }

    @Test fun rule1InitPostsPersistsAndIsTheOnlyInitTimeCallThatThrows() {
        val http = FakeHttp.standard()
        val store = MemoryStore()
        val client = SvcClient(http)
        val init = blocking { client.initialize(store, config({ it.copy(appVersion = "2.3.0") })) }
        assertEquals(InitResult("app_1", "Demo", 72, listOf(CampaignSummary("c1", "Launch", null)), false, true), init)
        assertEquals(mapOf("app_version" to "2.3.0", "sdk_version" to "1.1.1", "platform" to "android", "sdk_name" to "android"), http.calls[0].body)
        assertEquals("true", store.get(Keys.INITIALIZED))
        assertEquals("svc-sdk", http.calls[0].thread) // never the caller's thread
        blocking { client.initialize(store, config()) }
        assertEquals("a second initialize with the same key is answered from memory", 1, http.paths().count { it == "/sdk/init" })

        val refused = FakeHttp().apply { answer("/sdk/init", 401, mapOf("detail" to "unknown SDK key")) }
        val other = SvcClient(refused)
        val otherStore = MemoryStore()
        try {
            blocking { other.initialize(otherStore, config()) }
            fail("initialize must throw")
        } catch (e: SvcException) {
            assertEquals(401, e.status)
            assertFalse(e.retryable)
        }
        assertNull(otherStore.get(Keys.INITIALIZED))
        assertFalse(blocking { other.checkAttribution() }.attributed)
        assertEquals(emptyList<ActiveCampaign>(), blocking { other.getActiveCampaigns() })
    }

    @Test fun rule1AutoCaptureOnlyOnStoreDirectAndWhenAutoCaptureIsNotFalse() {
        class Lib : PurchaseSource {
            var listener: ((PurchaseReport) -> Unit)? = null
            override fun getPurchases() = emptyList<PurchaseReport>()
            override fun onPurchase(listener: (PurchaseReport) -> Unit): (() -> Unit) { this.listener = listener; return { this.listener = null } }
        }
        val provider = Lib()
        started(FakeHttp.standard(storeDirect = false), cfg = config({ it.copy(purchaseSource = provider) }))
        assertNull("never on a non-store-direct app", provider.listener)
        val manual = Lib()
        started(FakeHttp.standard(storeDirect = true), cfg = config({ it.copy(purchaseSource = manual, autoCapture = false) }))
        assertNull("the host reports itself", manual.listener)
        val auto = Lib()
        val http = FakeHttp.standard(storeDirect = true).apply { answer("/sdk/purchase", json = PURCHASE_ANSWER) }
        val store = MemoryStore()
        started(http, store, config({ it.copy(purchaseSource = auto) }))
        auto.listener!!(PurchaseReport("tok-1"))
        for (i in 0 until 100) if (store.get(Keys.REPORTED_PURCHASES) == null) Thread.sleep(20)
        assertEquals("""["android:tok-1"]""", store.get(Keys.REPORTED_PURCHASES))
    }

    @Test fun rule2AttributionCachedBothWaysAndAFailureStoresNothing() {
        val http = FakeHttp.standard()
        val store = MemoryStore()
        val client = started(http, store)
        http.down.add("/sdk/track-install")
        val failed = blocking { client.checkAttribution() }
        assertFalse(failed.attributed)
        assertTrue(failed.message!!.contains("network error"))
        assertNull(store.get(Keys.ATTRIBUTION))
        http.down.clear()
        val organic = blocking { client.checkAttribution() }
        assertEquals(AttributionResult(false, installRecorded = true, message = "No matching click found"), organic)
        assertEquals(organic, blocking { client.checkAttribution() })
        assertEquals(2, http.paths().count { it == "/sdk/track-install" })
        val sent = http.last("/sdk/track-install").body!!
        assertEquals("android", sent["platform"])
        assertEquals(store.get(Keys.INSTALL_ID), sent["device_id"])
        assertTrue((sent["device_id"] as String).matches(PureTest.UUID_V4))
    }

    @Test fun rules2And6And13AReferrerCodeAttributesAndSetsProviderAttributesAsStrings() {
        val attributes = mutableListOf<Map<String, String>>()
        val http = FakeHttp.standard()
        http.answer("/sdk/track-install", json = mapOf("attributed" to true, "referral_code" to "ABCD", "attribution_method" to "link_param",
            "clicked_at" to "2026-01-01T00:00:00Z", "click_id" to "clk_1", "install_recorded" to true))
        val store = MemoryStore()
        // A stored organic result is replaced by a referrer code (rule 13).
        store.set(Keys.ATTRIBUTION, """{"attributed":false,"install_recorded":true}""")
        val client = started(http, store, config({ it.copy(setSubscriberAttributes = { a -> attributes.add(a) }, installReferrer = InstallReferrerSource { "utm_source=x&svc_code=abcd&svc_click=clk_1" }) }))
        val res = blocking { client.checkAttribution() }
        assertEquals(AttributionResult(true, "ABCD", "link_param", "2026-01-01T00:00:00Z", "clk_1", true), res)
        assertEquals(mapOf("referral_code" to "ABCD", "click_id" to "clk_1"), http.last("/sdk/track-install").body!!.filterKeys { it == "referral_code" || it == "click_id" })
        assertEquals("ABCD", store.get(Keys.CODE))
        assertEquals(listOf(mapOf("svc_code" to "ABCD", "svc_referral" to "true")), attributes)
        val referral: Any? = attributes[0]["svc_referral"]
        assertTrue("svc_referral is the string \"true\", never a boolean", referral is String && referral == "true")
    }

    @Test fun rule13PlayInstallReferrerTimesTravelWithTrackInstall() {
        fun source(d: InstallReferrerDetails) = object : InstallReferrerSource {
            override fun installReferrer() = d.installReferrer
            override fun details() = d
        }
        fun sentWith(src: InstallReferrerSource?): Map<String, Any?> {
            val http = FakeHttp.standard()
            blocking { started(http, cfg = config({ it.copy(installReferrer = src) })).checkAttribution() }
            return http.last("/sdk/track-install").body!!
        }
        val sent = sentWith(source(InstallReferrerDetails("utm_source=x&svc_code=abcd&svc_click=clk_1", 1_790_000_000, 1_790_000_042, 1_790_000_040)))
        assertEquals(
            mapOf("referrer_click_timestamp_seconds" to 1_790_000_000L, "install_begin_timestamp_seconds" to 1_790_000_042L,
                "install_begin_timestamp_server_seconds" to 1_790_000_040L),
            sent["install_referrer"],
        )
        assertEquals("ABCD", sent["referral_code"])
        // Play's 0 (unknown) is sent as it is; a time the service would refuse (negative, after 2100) is sent as 0.
        assertEquals(
            mapOf("referrer_click_timestamp_seconds" to 0L, "install_begin_timestamp_seconds" to 1_790_000_100L, "install_begin_timestamp_server_seconds" to 0L),
            sentWith(source(InstallReferrerDetails("utm_source=google-play", 0, 1_790_000_100, 4_102_444_801)))["install_referrer"],
        )
        assertEquals(
            mapOf("referrer_click_timestamp_seconds" to 0L, "install_begin_timestamp_seconds" to 0L, "install_begin_timestamp_server_seconds" to 1_790_000_200L),
            sentWith(source(InstallReferrerDetails(null, -5, 0, 1_790_000_200)))["install_referrer"],
        )
        // No times known, a string-only source, no source, or a failing one: no install_referrer at all.
        assertFalse(sentWith(source(InstallReferrerDetails("utm_source=x", 0, 0, 0))).containsKey("install_referrer"))
        val stringOnly = sentWith(InstallReferrerSource { "svc_code=abcd" })
        assertFalse(stringOnly.containsKey("install_referrer"))
        assertEquals("ABCD", stringOnly["referral_code"])
        assertFalse(sentWith(null).containsKey("install_referrer"))
        assertFalse(sentWith(object : InstallReferrerSource {
            override fun installReferrer() = "svc_code=abcd"
            override fun details(): InstallReferrerDetails = throw IllegalStateException("Play Store not connected")
        }).containsKey("install_referrer"))
    }

    @Test fun rule3FailSoftEverywhereButInitializeAndReportPurchase() {
        val http = FakeHttp.standard()
        val store = MemoryStore()
        val client = started(http, store)
        blocking { client.identify("u1") }
        http.down.addAll(listOf("/sdk/campaigns", "/sdk/validate-code", "/sdk/set-referral-code", "/sdk/access", "/sdk/purchase", "/sdk/event"))
        assertEquals(emptyList<ActiveCampaign>(), blocking { client.getActiveCampaigns() })
        assertEquals(CodeErrorCode.NETWORK_ERROR, blocking { client.validateCode("ABCD") }.errorCode)
        assertFalse(blocking { client.setReferralCode("ABCD") }.success)
        assertEquals(AccessResult(false), blocking { client.checkAccess() })
        assertFalse(blocking { client.trackEvent("paywall_viewed") }.tracked)
        try {
            blocking { client.reportPurchase(PurchaseReport("tok-offline")) }
            fail("reportPurchase must throw")
        } catch (e: SvcException) {
            assertTrue(e.retryable)
        }
        assertNull(store.get(Keys.CODE))
    }

    @Test fun rule4CodesAreTrimmedAndUppercased() {
        val http = FakeHttp.standard().apply { answer("/sdk/validate-code", json = mapOf("valid" to false, "error_code" to "CODE_NOT_FOUND")) }
        val client = started(http)
        assertEquals(CodeErrorCode.CODE_NOT_FOUND, blocking { client.validateCode("  abcd\t") }.errorCode)
        assertEquals(mapOf("code" to "ABCD"), http.last("/sdk/validate-code").body)
    }

    @Test fun rule5EventIdsAreUuidV4AndMilestonesDeriveTheirs() {
        val http = FakeHttp.standard()
        val client = started(http)
        blocking { client.identify("user-1") }
        val viewed = blocking { client.trackEvent("paywall_viewed", properties = mapOf("screen" to "home")) }
        assertTrue(viewed.tracked)
        assertTrue(viewed.eventId!!.matches(PureTest.UUID_V4))
        assertEquals(mapOf("eventType" to "paywall_viewed", "appUserId" to "user-1", "properties" to mapOf("screen" to "home"), "eventId" to viewed.eventId, "platform" to "android"), http.last("/sdk/event").body)
        val trial = blocking { client.trackEvent("trial_started", properties = mapOf("trial_days" to 7, "plan" to "annual")) }
        assertEquals("fc30aff9-54ba-4723-b56d-c99c461b2158", trial.eventId)
    }

    @Test fun rule7StoredCodeGoesWithTheFirstTransactionOnlyAndRule8SentSetSurvivesClear() {
        val http = FakeHttp.standard(storeDirect = true).apply {
            answer("/sdk/set-referral-code", json = mapOf("success" to true, "code" to "ABCD", "campaign" to mapOf("id" to "c1", "name" to "Launch")))
            answer("/sdk/purchase", json = PURCHASE_ANSWER)
        }
        val store = MemoryStore()
        val client = started(http, store, config({ it.copy(autoCapture = false) }))
        blocking { client.identify("buyer") }
        assertTrue(blocking { client.setReferralCode(" abcd ") }.success)
        val first = blocking { client.reportPurchase(PurchaseReport("tok-1")) }
        assertEquals(PurchaseResult(true, "google_play", "PRODUCTION", "INITIAL_PURCHASE", false, true, PurchaseProcessing(true, "ev_1")), first)
        assertEquals(mapOf("platform" to "android", "purchaseToken" to "tok-1", "referralCode" to "ABCD", "appUserId" to "buyer"), http.last("/sdk/purchase").body)
        blocking { client.reportPurchase(PurchaseReport("tok-2", productId = "coins", price = 4.99, currency = "EUR")) }
        assertEquals(mapOf("platform" to "android", "purchaseToken" to "tok-2", "productId" to "coins", "price" to 4.99, "currency" to "EUR", "appUserId" to "buyer"), http.last("/sdk/purchase").body)
        blocking { client.clearAttribution() }
        assertEquals("""["android:tok-1","android:coins:tok-2"]""", store.get(Keys.REPORTED_PURCHASES))
    }

    @Test fun rule9PositiveAccessCachedFiveMinutesNegativeNeverNoUserNoRequest() {
        var now = 1_000_000L
        var access = mapOf<String, Any?>("has_access" to true, "source" to "comp", "entitlement" to "pro", "expires_at" to "2030-01-01T00:00:00Z", "code" to "FREE1")
        val http = FakeHttp.standard().apply { answers["/sdk/access"] = { HttpResponse(200, Json.write(access)) } }
        val store = MemoryStore()
        val client = started(http, store, clock = { now })
        assertEquals(AccessResult(false), blocking { client.checkAccess() })
        assertEquals(0, http.paths().count { it == "/sdk/access" })
        blocking { client.identify("u1") }
        val yes = blocking { client.checkAccess() }
        assertEquals(AccessResult(true, "comp", "pro", "2030-01-01T00:00:00Z", "FREE1"), yes)
        assertEquals(yes, blocking { client.checkAccess() })
        assertEquals(1, http.paths().count { it == "/sdk/access" })
        now += 5 * 60_000 + 1
        access = mapOf("has_access" to false)
        assertFalse(blocking { client.checkAccess() }.hasAccess)
        assertNull(store.get(Keys.ACCESS))
        blocking { client.checkAccess() }
        assertEquals(3, http.paths().count { it == "/sdk/access" })
    }

    @Test fun rule10ApplyValidatesThenSetsAndKeepsTheCodeOnlyAfterSuccess() {
        val http = FakeHttp.standard().apply {
            answer("/sdk/validate-code", json = mapOf("valid" to true, "code" to "ABCD", "campaign" to mapOf("id" to "c1", "name" to "Launch", "description" to null,
                "commission_percentage" to 30, "campaign_type" to "public"), "influencer" to mapOf("name" to "Ann", "social_handle" to "@ann", "follower_count" to 1200), "custom_data" to null))
            answer("/sdk/set-referral-code", 404, mapOf("detail" to "Unknown or inactive code"))
        }
        val store = MemoryStore()
        val client = started(http, store)
        val refused = blocking { client.applyCode("abcd") }
        assertEquals(listOf("/sdk/validate-code", "/sdk/set-referral-code"), http.paths().drop(1))
        assertFalse(refused.applied)
        assertEquals(CodeErrorCode.CODE_NOT_FOUND, refused.errorCode)
        assertNull(store.get(Keys.CODE))
        http.answer("/sdk/set-referral-code", json = mapOf("success" to true, "code" to "ABCD", "message" to "ok", "campaign" to mapOf("id" to "c1", "name" to "Launch")))
        val applied = blocking { client.applyCode("abcd") }
        assertEquals(ApplyCodeResult(true, true, true, "ABCD", CodeCampaign("c1", "Launch", null, 30.0, "public"), Influencer("Ann", "@ann", 1200), "ok"), applied)
        assertEquals("ABCD", store.get(Keys.CODE))
        http.answer("/sdk/set-referral-code", json = mapOf("success" to true, "code" to "FREE1", "free_access" to true, "grants_access" to true))
        blocking { client.identify("u9") }
        blocking { client.setReferralCode("free1") }
        assertEquals("a free-access code defaults to the identified user", mapOf("code" to "FREE1", "app_user_id" to "u9"), http.last("/sdk/set-referral-code").body)
        assertEquals("a free-access code is no creator code", "ABCD", store.get(Keys.CODE))
    }

    @Test fun rule11OnlyTheListedKeysAndClearAttributionDropsAttributionCodeAndUser() {
        val store = MemoryStore()
        val client = started(store = store)
        blocking { client.checkAttribution(); client.identify("u1"); client.trackEvent("paywall_viewed"); client.checkAccess() }
        val listed = setOf(Keys.ATTRIBUTION, Keys.CODE, Keys.APP_USER_ID, Keys.INITIALIZED, Keys.INSTALL_ID, Keys.ACCESS, Keys.REPORTED_PURCHASES, Keys.OUTBOX)
        assertEquals(emptySet<String>(), store.map.keys - listed)
        store.set(Keys.CODE, "ABCD")
        blocking { client.clearAttribution() }
        for (k in listOf(Keys.ATTRIBUTION, Keys.CODE, Keys.APP_USER_ID)) assertNull(k, store.get(k))
        for (k in listOf(Keys.INITIALIZED, Keys.INSTALL_ID)) assertNotNull(k, store.get(k))
        try { store.set("host_key", "x"); fail("keys outside @svc/ are refused") } catch (e: IllegalArgumentException) { }
    }

    @Test fun rule12BackSyncSkipsReportedPurchasesAndCountsFailures() {
        val http = FakeHttp.standard(storeDirect = true)
        http.answers["/sdk/purchase"] = { c ->
            if (c.body!!["purchaseToken"] == "bad") HttpResponse(400, """{"detail":"verification failed"}""") else HttpResponse(200, Json.write(PURCHASE_ANSWER))
        }
        val lib = object : PurchaseSource {
            override fun getPurchases() = listOf(PurchaseReport("tok-1"), PurchaseReport("tok-2"), PurchaseReport("bad"))
        }
        val client = started(http, cfg = config({ it.copy(purchaseSource = lib, autoCapture = false) }))
        blocking { client.reportPurchase(PurchaseReport("tok-1")) }
        assertEquals(SyncResult(3, 1, 1), blocking { client.syncPurchases() })
        assertEquals(3, http.paths().count { it == "/sdk/purchase" })
        val provider = started(FakeHttp.standard(), cfg = config({ it.copy(purchaseSource = lib) }))
        assertEquals(SyncResult(0, 0, 0), blocking { provider.syncPurchases() })
    }

    @Test fun rule14ResultsAreCamelCase() {
        for (type in listOf(InitResult::class, AttributionResult::class, ValidationResult::class, CodeCampaign::class, Influencer::class, SetReferralCodeResult::class,
            ApplyCodeResult::class, AccessResult::class, PurchaseResult::class, PurchaseProcessing::class, ActiveCampaign::class, TrackEventResult::class, IdentifyResult::class)) {
            for (field in type.java.declaredFields) assertFalse("${type.simpleName}.${field.name}", field.name.contains('_'))
        }
        assertEquals(CodeErrorCode.UNKNOWN, CodeErrorCode.of("SOMETHING_NEW"))
    }

    @Test fun outboxKeepsAnUnansweredReportAndTheRetrySendsItWithTheSameBody() {
        var fail = true
        val http = FakeHttp.standard(storeDirect = true)
        http.answers["/sdk/purchase"] = { if (fail) HttpResponse(503, """{"detail":"No exchange rate; try again"}""") else HttpResponse(200, Json.write(PURCHASE_ANSWER)) }
        val store = MemoryStore()
        val client = started(http, store, config({ it.copy(autoCapture = false, retryDelayMs = 200) }))
        try {
            blocking { client.reportPurchase(PurchaseReport("tok-9", appUserId = "u")) }
            fail("a 503 is thrown")
        } catch (e: SvcException) {
            assertEquals(503, e.status)
            assertTrue(e.retryable)
        }
        assertTrue(store.get(Keys.OUTBOX)!!.contains("android:tok-9"))
        fail = false
        for (i in 0 until 100) if (store.get(Keys.OUTBOX) != null) Thread.sleep(20)
        assertNull("the retry timer sent it", store.get(Keys.OUTBOX))
        val bodies = http.calls.filter { it.path == "/sdk/purchase" }.map { it.body }
        assertEquals(2, bodies.size)
        assertEquals(bodies[0], bodies[1])
        assertEquals("""["android:tok-9"]""", store.get(Keys.REPORTED_PURCHASES))
    }

    companion object {
        val PURCHASE_ANSWER = mapOf("success" to true, "validated" to "google_play", "environment" to "PRODUCTION", "event_type" to "INITIAL_PURCHASE",
            "duplicate" to false, "recorded" to true, "result" to mapOf("processed" to true, "event_id" to "ev_1"))
    }
}
