// The Android SDK against the real service: code validation and application, the fail-soft answers (rules 3, 4, 6,
// 10, 14), the scenarios of test/integration/sdk-client-codes.test.ts for the TypeScript SDK.
package com.svc.attribution.contract

import com.svc.attribution.AccessResult
import com.svc.attribution.CodeErrorCode
import com.svc.attribution.PurchaseReport
import com.svc.attribution.SvcException
import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertNull
import org.junit.Assert.assertTrue
import org.junit.Assert.fail
import org.junit.Test
import com.svc.attribution.blocking

class CodesContractTest {
    private fun started(): Phone = Phone().also { p -> blocking { p.client.initialize(p.store, p.config()) } }

    @Test fun rule4CodesAreTrimmedAndUppercasedAndResultsAreCamelCase() {
        val phone = started()
        val res = blocking { phone.client.validateCode("  ${Service.creatorCode.lowercase()}\t") }
        assertEquals(mapOf("code" to Service.creatorCode), phone.net.last("/sdk/validate-code").body)
        assertTrue(res.valid)
        assertEquals(Service.creatorCode, res.code)
        assertEquals(30.0, res.campaign!!.commissionPercentage, 0.0)
        assertEquals("public", res.campaign!!.campaignType)
        assertTrue(res.influencer!!.name!!.isNotEmpty())
        assertEquals(CodeErrorCode.INVALID_FORMAT, blocking { phone.client.validateCode("ab") }.errorCode)
        assertEquals(CodeErrorCode.CODE_NOT_FOUND, blocking { phone.client.validateCode("NOSUCHCODE1") }.errorCode)
    }

    @Test fun rule10ApplyCodeValidatesThenSetsAndKeepsTheCodeOnlyAfterSuccess() {
        val attributes = mutableListOf<Map<String, String>>()
        val phone = Phone()
        blocking { phone.client.initialize(phone.store, phone.config { it.copy(setSubscriberAttributes = { a -> attributes.add(a) }) }) }
        val unknown = blocking { phone.client.applyCode("nosuchcode9") }
        assertFalse(unknown.applied)
        assertEquals(CodeErrorCode.CODE_NOT_FOUND, unknown.errorCode)
        assertNull(blocking { phone.client.getReferralCode() })
        val before = phone.net.calls.size
        val applied = blocking { phone.client.applyCode(" ${Service.creatorCode.lowercase()} ") }
        assertEquals(listOf("/sdk/validate-code", "/sdk/set-referral-code"), phone.net.paths().drop(before))
        assertTrue(applied.applied)
        assertEquals(Service.campaignId, applied.campaign!!.id)
        assertEquals(Service.creatorCode, blocking { phone.client.getReferralCode() })
        assertEquals(listOf(mapOf("svc_code" to Service.creatorCode, "svc_referral" to "true")), attributes)
        val gone = blocking { phone.client.setReferralCode("GONE1234") }
        assertFalse(gone.success)
        assertEquals(CodeErrorCode.CODE_NOT_FOUND, gone.errorCode)
        assertEquals(Service.creatorCode, blocking { phone.client.getReferralCode() })
    }

    @Test fun rule3FailSoftAnswersWhileTheNetworkIsDown() {
        val phone = started()
        blocking { phone.client.identify("soft-${phone.net.ip}") }
        phone.net.down.addAll(listOf("/sdk/campaigns", "/sdk/validate-code", "/sdk/set-referral-code", "/sdk/access", "/sdk/purchase", "/sdk/event"))
        assertEquals(emptyList<Any>(), blocking { phone.client.getActiveCampaigns() })
        assertEquals(CodeErrorCode.NETWORK_ERROR, blocking { phone.client.validateCode(Service.creatorCode) }.errorCode)
        assertFalse(blocking { phone.client.setReferralCode(Service.creatorCode) }.success)
        assertEquals(AccessResult(false), blocking { phone.client.checkAccess() })
        assertFalse(blocking { phone.client.trackEvent("paywall_viewed") }.tracked)
        val applied = blocking { phone.client.applyCode(Service.creatorCode) }
        assertFalse(applied.applied)
        assertEquals(CodeErrorCode.NETWORK_ERROR, applied.errorCode)
        try {
            blocking { phone.client.reportPurchase(PurchaseReport("tok-offline")) }
            fail("reportPurchase throws")
        } catch (e: SvcException) {
            assertTrue(e.retryable)
        }
        assertNull(blocking { phone.client.getReferralCode() })
        phone.net.down.clear()
        val campaigns = blocking { phone.client.getActiveCampaigns() }
        assertEquals(listOf(Service.campaignId), campaigns.map { it.id })
        assertEquals(30.0, campaigns[0].commissionPercentage, 0.0)
    }
}
