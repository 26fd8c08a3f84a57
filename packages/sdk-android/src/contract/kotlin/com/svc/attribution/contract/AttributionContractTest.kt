// The Android SDK against the real service: init, track-install attributed (Play install referrer) and organic,
// events with the derived ids of rule 5 (rules 1, 2, 5, 6, 11, 13, 14), the scenarios of
// test/integration/sdk-client-attribution.test.ts for the TypeScript SDK.
package com.svc.attribution.contract

import com.svc.attribution.Ids
import com.svc.attribution.InstallReferrerDetails
import com.svc.attribution.InstallReferrerSource
import com.svc.attribution.Keys
import com.svc.attribution.SvcException
import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertNotNull
import org.junit.Assert.assertNull
import org.junit.Assert.assertTrue
import org.junit.Assert.fail
import org.junit.Test
import com.svc.attribution.blocking

class AttributionContractTest {
    companion object {
        /** The Play Install Referrer's times of the attributed install (test/integration/sdk-android.test.ts reads them back). */
        val PLAY_TIMES = mapOf(
            "referrer_click_timestamp_seconds" to 1_790_000_000L,
            "install_begin_timestamp_seconds" to 1_790_000_042L,
            "install_begin_timestamp_server_seconds" to 1_790_000_040L,
        )

        /** What the README's PlayInstallReferrer glue answers: the referrer string with Play's times. */
        fun playReferrer(referrer: String) = object : InstallReferrerSource {
            override fun installReferrer() = referrer
            override fun details() = InstallReferrerDetails(
                referrer,
                PLAY_TIMES.getValue("referrer_click_timestamp_seconds"),
                PLAY_TIMES.getValue("install_begin_timestamp_seconds"),
                PLAY_TIMES.getValue("install_begin_timestamp_server_seconds"),
            )
        }
    }

    @Test fun rule1InitializePostsInitPersistsAndThrowsOnAWrongKey() {
        val phone = Phone()
        val init = blocking { phone.client.initialize(phone.store, phone.config { it.copy(appVersion = "3.1.0") }) }
        assertTrue(init.initialized)
        assertFalse(init.storeDirect)
        assertEquals(72, init.attributionWindowHours)
        assertEquals(mapOf("app_version" to "3.1.0", "sdk_version" to "1.1.1", "platform" to "android", "sdk_name" to "android"), phone.net.calls[0].body)
        assertEquals("true", phone.store.get(Keys.INITIALIZED))

        val wrong = Phone()
        try {
            blocking { wrong.client.initialize(wrong.store, wrong.config("it_not_a_real_key")) }
            fail("a wrong key must throw")
        } catch (e: SvcException) {
            assertEquals(401, e.status)
        }
        assertNull(wrong.store.get(Keys.INITIALIZED))
        assertFalse(blocking { wrong.client.checkAttribution() }.attributed)
    }

    @Test fun rules2And6And13AnInstallFromAReferralLinkIsAttributedByItsInstallReferrer() {
        val net = PhoneNetwork()
        val referrer = Service.tapReferralLink(net.ip)
        val attributes = mutableListOf<Map<String, String>>()
        val phone = Phone(net)
        blocking {
            phone.client.initialize(phone.store, phone.config {
                it.copy(installReferrer = playReferrer("utm_source=creator&$referrer"), setSubscriberAttributes = { a -> attributes.add(a) })
            })
        }
        val res = blocking { phone.client.checkAttribution() }
        assertTrue(res.toString(), res.attributed)
        assertEquals(Service.creatorCode, res.referralCode)
        assertEquals("link_param", res.attributionMethod)
        assertEquals(true, res.installRecorded)
        assertNotNull(res.clickId)
        val sent = net.last("/sdk/track-install").body!!
        assertEquals(Service.creatorCode, sent["referral_code"])
        assertEquals(res.clickId, sent["click_id"])
        assertEquals(phone.store.get(Keys.INSTALL_ID), sent["device_id"])
        // Play's times travel too; test/integration/sdk-android.test.ts finds them on the install row.
        assertEquals(PLAY_TIMES, sent["install_referrer"])
        assertEquals(listOf(mapOf("svc_code" to Service.creatorCode, "svc_referral" to "true")), attributes)
        assertEquals(Service.creatorCode, phone.store.get(Keys.CODE))
        assertEquals(res, blocking { phone.client.checkAttribution() })
        assertEquals("answered from @svc/attribution", 1, net.paths().count { it == "/sdk/track-install" })
    }

    @Test fun rule2AnOrganicInstallIsCachedTooAndAFailureStoresNothing() {
        val phone = Phone()
        blocking { phone.client.initialize(phone.store, phone.config()) }
        phone.net.down.add("/sdk/track-install")
        assertFalse(blocking { phone.client.checkAttribution() }.attributed)
        assertNull(phone.store.get(Keys.ATTRIBUTION))
        phone.net.down.clear()
        val organic = blocking { phone.client.checkAttribution() }
        assertFalse(organic.attributed)
        assertEquals(true, organic.installRecorded)
        assertNotNull(phone.store.get(Keys.ATTRIBUTION))
        blocking { phone.client.checkAttribution() }
        assertEquals(2, phone.net.paths().count { it == "/sdk/track-install" })
    }

    @Test fun rule5FunnelMilestonesCarryTheDerivedIdAndAnotherInstallOfTheUserIsADuplicate() {
        val phone = Phone()
        blocking { phone.client.initialize(phone.store, phone.config()) }
        val user = "droid-${Ids.uuidV4()}"
        assertTrue(blocking { phone.client.identify(user) }.identified)
        val viewed = blocking { phone.client.trackEvent("paywall_viewed", properties = mapOf("screen" to "home")) }
        assertTrue(viewed.tracked)
        assertFalse(viewed.duplicate)
        val props = mapOf("plan" to "annual", "trial_days" to 7, "price" to 4.99)
        val trial = blocking { phone.client.trackEvent("trial_started", properties = props) }
        assertTrue(trial.tracked)
        assertEquals(Ids.derivedEventId("trial_started", user, props), trial.eventId)
        assertEquals(trial.eventId, phone.net.last("/sdk/event").body!!["eventId"])
        val other = Phone()
        blocking { other.client.initialize(other.store, other.config()) }
        val again = blocking { other.client.trackEvent("trial_started", appUserId = user, properties = mapOf("price" to 4.99, "trial_days" to 7, "plan" to "annual")) }
        assertEquals(trial.eventId, again.eventId)
        assertTrue("the service keeps one", again.duplicate)
        assertEquals("event_id", again.dedupReason)
        assertNull("answered: nothing left in the outbox", phone.store.get(Keys.OUTBOX))
    }

    @Test fun rule11ClearAttributionDropsAttributionCodeAndUserAndKeepsTheRest() {
        val net = PhoneNetwork()
        val referrer = Service.tapReferralLink(net.ip)
        val phone = Phone(net)
        blocking { phone.client.initialize(phone.store, phone.config { it.copy(installReferrer = InstallReferrerSource { referrer }) }) }
        blocking { phone.client.checkAttribution(); phone.client.identify("keys-${net.ip}"); phone.client.trackEvent("paywall_viewed"); phone.client.checkAccess() }
        val listed = setOf(Keys.ATTRIBUTION, Keys.CODE, Keys.APP_USER_ID, Keys.INITIALIZED, Keys.INSTALL_ID, Keys.ACCESS, Keys.REPORTED_PURCHASES)
        assertEquals(emptySet<String>(), phone.store.map.keys - listed)
        blocking { phone.client.clearAttribution() }
        for (k in listOf(Keys.ATTRIBUTION, Keys.CODE, Keys.APP_USER_ID)) assertNull(k, phone.store.get(k))
        for (k in listOf(Keys.INITIALIZED, Keys.INSTALL_ID)) assertNotNull(k, phone.store.get(k))
    }
}
