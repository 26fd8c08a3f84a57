// The pure parts: the JSON reader and writer (JavaScript's spelling of numbers and strings), the ids of rules 5 and
// 7 against golden vectors computed by packages/sdk (the TypeScript SDK) and the server's dedup key, and the
// install-referrer parsing of rule 13 on the cases of test/unit/sdk-launch.test.ts.
package com.svc.attribution

import org.junit.Assert.assertEquals
import org.junit.Assert.assertNull
import org.junit.Assert.assertTrue
import org.junit.Assert.fail
import org.junit.Test

class PureTest {
    @Test fun jsonReadsWhatItWrites() {
        val text = """{"a":[1,-2.5,true,false,null,"x\"y\\z\n\u00e9"],"b":{"c":12345678901234,"d":1.0E-7}}"""
        val parsed = asObject(Json.parse(text))!!
        assertEquals(listOf(1L, -2.5, true, false, null, "x\"y\\z\né"), parsed["a"])
        assertEquals(12345678901234L, parsed.obj("b")!!["c"])
        assertEquals("""{"a":[1,-2.5,true,false,null,"x\"y\\z\né"],"b":{"c":12345678901234,"d":1e-7}}""", Json.write(parsed))
        for (bad in listOf("", "{", "[1,]", "{\"a\" 1}", "tru", "\"\u0001\"", "1 2")) {
            try { Json.parse(bad); fail("parsed '$bad'") } catch (e: JsonException) { }
        }
    }

    @Test fun numbersAreSpelledAsJavaScriptDoes() {
        val cases = mapOf(1.0 to "1", 4.99 to "4.99", 1e21 to "1e+21", 1e20 to "100000000000000000000", 1.5e-7 to "1.5e-7",
            0.000001 to "0.000001", -0.5 to "-0.5", 123.456 to "123.456", 2.5e-300 to "2.5e-300", Double.NaN to "null")
        for ((d, js) in cases) assertEquals("$d", js, Json.number(d))
    }

    @Test fun stringsAreEscapedAsJsonStringifyDoes() {
        assertEquals("{\"s\":\"a\\u0001\\ud800x\u2028\"}", Json.canonical(mapOf("s" to "a\u0001\ud800x\u2028")))
        assertEquals("""{"a":2,"z":{"b":1,"c":[{"d":2,"e":1}]}}""",
            Json.canonical(mapOf("z" to mapOf("c" to listOf(mapOf("e" to 1, "d" to 2)), "b" to 1), "a" to 2)))
    }

    /** Golden vectors: derivedEventId of packages/sdk for the same inputs (key order does not matter). */
    @Test fun rule5DerivedIdsEqualTheTypeScriptSdks() {
        assertEquals("fc30aff9-54ba-4723-b56d-c99c461b2158", Ids.derivedEventId("trial_started", "user-1", mapOf("trial_days" to 7, "plan" to "annual")))
        val props = mapOf("price" to 4.99, "big" to 1e21, "small" to 1.5e-7, "tiny" to 0.000001, "neg" to -0.5, "n" to null,
            "list" to listOf(1, "a\n\"b\"", true), "nested" to mapOf("z" to 1, "a" to 2))
        assertEquals("8b5d12a4-5608-43e5-a14f-adafe2c24a84", Ids.derivedEventId("subscription_purchased", "ünï-😀", props))
        assertEquals("27f60eb5-805c-4609-8ca0-b852f9ae5dc8", Ids.derivedEventId("subscription_renewed", "u", emptyMap()))
        assertNull(Ids.derivedEventId("paywall_viewed", "u", emptyMap()))
        assertTrue(Ids.uuidV4().matches(UUID_V4))
    }

    @Test fun rule7ObfuscatedAccountIdIsTheSha256OfTheUser() {
        assertEquals("2bd806c97f0e00af1a1fc3328fa763a9269723c8db8fac4f93af71db186d6e90", Ids.obfuscatedAccountId("alice"))
        assertEquals(64, Ids.obfuscatedAccountId("user-42").length)
        assertEquals(listOf(0xEF, 0xBF, 0xBD), Ids.utf8("\ud800").map { it.toInt() and 0xFF })
    }

    @Test fun rule13InstallReferrerIsParsedAsTheWebSdkDoes() {
        assertEquals(LaunchParams("ABCD", "clk_1"), InstallReferrer.parse("utm_source=creator&svc_code=abcd&svc_click=clk_1"))
        assertEquals(LaunchParams("ABCD", "clk_1"), InstallReferrer.parse("utm_source%3Dcreator%26svc_code%3Dabcd%26svc_click%3Dclk_1"))
        assertEquals(LaunchParams("ABCD", null), InstallReferrer.parse("svc_code=+abcd+&svc_click=(not%20set)"))
        assertNull(InstallReferrer.parse("utm_source=(not set)&svc_code=(not set)"))
        assertNull(InstallReferrer.parse("utm_source=google-play&utm_medium=organic"))
        assertNull(InstallReferrer.parse(null))
        assertNull(InstallReferrer.parse(""))
    }

    companion object {
        val UUID_V4 = Regex("^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
    }
}
