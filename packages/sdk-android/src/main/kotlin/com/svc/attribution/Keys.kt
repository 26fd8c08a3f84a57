// Rule 11: the local keys, the same on every platform, and the parsing of the Play install-referrer string
// (rule 13), as packages/sdk/src/launch.ts parses it.
package com.svc.attribution

import java.net.URLDecoder

object Keys {
    const val ATTRIBUTION = "@svc/attribution"
    const val CODE = "@svc/svc_code"
    const val APP_USER_ID = "@svc/app_user_id"
    const val INITIALIZED = "@svc/initialized"
    const val INSTALL_ID = "@svc/install_id"
    const val ACCESS = "@svc/access"

    /**
     * The sent-set of rule 8. Rule 11 names none for Android; we use React Native's name, so an app moving from the
     * React Native SDK to this one on Android keeps its sent purchases (docs/sdk.md).
     */
    const val REPORTED_PURCHASES = "@svc/reported_purchases"

    /** Beyond rule 11 (as the TypeScript SDK): events and purchases not yet answered; present only while unsent. */
    const val OUTBOX = "@svc/outbox"

    /** Rule 11 (Android as React Native, iOS, Flutter): what clearAttribution removes. */
    val CLEARED: List<String> = listOf(ATTRIBUTION, CODE, APP_USER_ID)

    const val PREFIX = "@svc/"

    fun own(key: String): String {
        require(key.startsWith(PREFIX)) { "svc: key outside $PREFIX: $key" }
        return key
    }
}

/** A code (and its click) the app was installed with. */
data class LaunchParams(val code: String, val clickId: String?)

object InstallReferrer {
    /** Google Play reports a missing value as the literal `(not set)`: that is no code. */
    private fun unset(v: String?): Boolean = v == null || v.trim().isEmpty() || v.trim().lowercase() == "(not set)"

    private fun decode(v: String): String = try { URLDecoder.decode(v, "UTF-8") } catch (e: Exception) { v }

    private fun params(query: String): Map<String, String> {
        val out = LinkedHashMap<String, String>()
        for (part in query.removePrefix("?").split('&')) {
            if (part.isEmpty()) continue
            val eq = part.indexOf('=')
            out[decode(if (eq < 0) part else part.substring(0, eq))] = decode(if (eq < 0) "" else part.substring(eq + 1))
        }
        return out
    }

    /** `svc_code` / `svc_click` of the install-referrer string (a query string, possibly URL-encoded as a whole). */
    fun parse(referrer: String?): LaunchParams? {
        if (referrer.isNullOrEmpty()) return null
        val raw = if (referrer.contains("svc_code=")) referrer else decode(referrer)
        val p = params(raw)
        val code = p["svc_code"]
        if (unset(code)) return null
        val click = p["svc_click"]
        return LaunchParams(code!!.trim().uppercase(), if (unset(click)) null else click!!.trim())
    }

    /** 2100-01-01T00:00:00Z: the service refuses later times (and negative ones) with a 422, so they are sent as 0. */
    const val MAX_SECONDS = 4_102_444_800L

    /**
     * track-install's `install_referrer`: Play's three times by Play's names; a value the service would refuse is
     * sent as 0 (unknown), so a broken clock cannot stop attribution. Null when Play reported none of them.
     */
    fun times(d: InstallReferrerDetails?): Map<String, Long>? {
        if (d == null) return null
        fun sane(s: Long) = if (s in 0..MAX_SECONDS) s else 0L
        val out = linkedMapOf(
            "referrer_click_timestamp_seconds" to sane(d.referrerClickTimestampSeconds),
            "install_begin_timestamp_seconds" to sane(d.installBeginTimestampSeconds),
            "install_begin_timestamp_server_seconds" to sane(d.installBeginTimestampServerSeconds),
        )
        return if (out.values.any { it > 0 }) out else null
    }
}
