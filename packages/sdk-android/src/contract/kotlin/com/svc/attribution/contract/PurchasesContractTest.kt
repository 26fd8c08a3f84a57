// The Android SDK as a store-direct app against the real service (Google Play and the ECB are the project's stubs):
// a purchase token reported with the stored code reaches the attributed conversion (rules 7, 8, 12), a 503 stays in
// the outbox and the retry delivers it. The scenarios of test/integration/sdk-client-purchases.test.ts.
package com.svc.attribution.contract

import com.svc.attribution.Ids
import com.svc.attribution.Keys
import com.svc.attribution.PurchaseReport
import com.svc.attribution.PurchaseSource
import com.svc.attribution.SyncResult
import com.svc.attribution.SvcException
import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertNull
import org.junit.Assert.assertTrue
import org.junit.Assert.fail
import org.junit.Test
import com.svc.attribution.blocking

class PurchasesContractTest {
    private fun recent(user: String): Map<String, Any?> = Service.clientGet("/sdk/recent-conversions?app_user_id=$user", Service.storeSdkKey)

    @Test fun rule7AStoreDirectReportWithTheStoredCodeReachesTheAttributedConversion() {
        val token = "sub-${Ids.uuidV4()}"
        Service.control("google/subscription", mapOf("token" to token))
        val inStore = mutableListOf<PurchaseReport>()
        val library = object : PurchaseSource {
            override fun getPurchases() = inStore.toList()
        }
        val phone = Phone()
        val init = blocking { phone.client.initialize(phone.store, phone.config(Service.storeSdkKey) { it.copy(autoCapture = false, purchaseSource = library) }) }
        assertTrue(init.storeDirect)
        val user = "buyer-${Ids.uuidV4()}"
        blocking { phone.client.identify(user) }
        assertTrue(blocking { phone.client.applyCode(Service.storeCreatorCode.lowercase()) }.applied)
        val answer = blocking { phone.client.reportPurchase(PurchaseReport(token)) }
        assertTrue(answer.success)
        assertEquals("google_play", answer.validated)
        assertEquals("INITIAL_PURCHASE", answer.eventType)
        assertFalse(answer.duplicate)
        assertTrue(answer.recorded)
        assertTrue(answer.result.processed)
        assertEquals(mapOf("platform" to "android", "purchaseToken" to token, "referralCode" to Service.storeCreatorCode, "appUserId" to user),
            phone.net.last("/sdk/purchase").body)
        val conversions = recent(user)
        assertEquals(1L, conversions["attributed_count"])
        @Suppress("UNCHECKED_CAST")
        val first = (conversions["conversions"] as List<Map<String, Any?>>)[0]
        assertEquals(Service.storeCreatorCode, first["referral_code"])
        assertEquals("INITIAL_PURCHASE", first["event_type"])

        // Back-sync: the reported token is skipped (rule 12), a second purchase is sent without the code (rule 7).
        val second = "sub-${Ids.uuidV4()}"
        Service.control("google/subscription", mapOf("token" to second))
        inStore.addAll(listOf(PurchaseReport(token), PurchaseReport(second)))
        assertEquals(SyncResult(2, 1, 0), blocking { phone.client.syncPurchases() })
        assertFalse(phone.net.last("/sdk/purchase").body!!.containsKey("referralCode"))
        blocking { phone.client.clearAttribution() }
        assertEquals("[\"android:$token\",\"android:$second\"]", phone.store.get(Keys.REPORTED_PURCHASES))
    }

    @Test fun rule3A503IsThrownRetryableKeptInTheOutboxAndDeliveredByTheRetry() {
        val token = "tok-${Ids.uuidV4()}"
        // An old one-time purchase priced in yen: its day's rate needs the ECB, which is down.
        Service.control("google/product", mapOf("productId" to "gems", "token" to token, "daysAgo" to 200))
        Service.control("ecb", mapOf("failWith" to 503))
        val phone = Phone()
        blocking { phone.client.initialize(phone.store, phone.config(Service.storeSdkKey) { it.copy(autoCapture = false) }) }
        val user = "retry-${Ids.uuidV4()}"
        blocking { phone.client.identify(user) }
        try {
            try {
                blocking { phone.client.reportPurchase(PurchaseReport(token, productId = "gems", price = 1200.0, currency = "JPY")) }
                fail("a 503 is thrown")
            } catch (e: SvcException) {
                assertEquals(e.message, 503, e.status)
                assertTrue(e.retryable)
            }
            assertTrue(phone.store.get(Keys.OUTBOX)!!.contains("android:gems:$token"))
            assertNull(phone.store.get(Keys.REPORTED_PURCHASES))
        } finally {
            Service.control("ecb", mapOf("failWith" to null))
        }
        waitFor("the retry to deliver the report") { phone.store.get(Keys.OUTBOX) == null }
        assertEquals("[\"android:gems:$token\"]", phone.store.get(Keys.REPORTED_PURCHASES))
        val bodies = phone.net.calls.filter { it.path == "/sdk/purchase" }.map { it.body }
        assertTrue(bodies.size >= 2)
        assertTrue("the same body each time", bodies.all { it == bodies[0] })
        @Suppress("UNCHECKED_CAST")
        val conversions = recent(user)["conversions"] as List<Map<String, Any?>>
        assertEquals(listOf("NON_RENEWING_PURCHASE"), conversions.map { it["event_type"] })
    }
}
