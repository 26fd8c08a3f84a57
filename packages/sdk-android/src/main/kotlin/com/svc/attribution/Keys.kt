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
}
