// The platform pieces the SDK does not own, each behind a small interface so the library compiles without
// android.jar and runs its tests on the JVM: the key-value store (SharedPreferences in an app), the Play Install
// Referrer value, the Play Billing purchases, and the HTTP transport (HttpURLConnection by default). The Android
// glue an app writes for them is in this package's README (docs only, not compiled here).
package com.svc.attribution

import java.io.IOException
import java.net.HttpURLConnection
import java.net.URL

/**
 * Synchronous string storage (rule 11). The SDK reads and writes only its own `@svc/` keys and never clears the
 * whole store. Called on the SDK's own thread, never the caller's; SharedPreferences with apply() fits.
 */
interface KeyValueStore {
    fun get(key: String): String?
    fun set(key: String, value: String)
    fun remove(key: String)
}

/** A store in memory (tests, or an app that wants nothing persisted). */
class MemoryStore : KeyValueStore {
    val map: MutableMap<String, String> = java.util.concurrent.ConcurrentHashMap()
    override fun get(key: String): String? = map[Keys.own(key)]
    override fun set(key: String, value: String) { map[Keys.own(key)] = value }
    override fun remove(key: String) { map.remove(Keys.own(key)) }
}

/**
 * Rule 13: the Play Install Referrer string (`InstallReferrerClient` ... `installReferrer`), read once on the
 * SDK's thread during initialize; null when there is none. A blocking call is fine here. Override `details` to pass
 * Play's times too (the README's glue does): track-install carries them for the click-injection check.
 */
fun interface InstallReferrerSource {
    fun installReferrer(): String?

    /** The referrer with Play's times (`ReferrerDetails`); by default the string alone, times unknown. */
    fun details(): InstallReferrerDetails = InstallReferrerDetails(installReferrer())
}

/**
 * What `InstallReferrerClient.getInstallReferrer()` answers: the referrer string and its times in seconds since the
 * epoch, by Play's own names (`ReferrerDetails.getReferrerClickTimestampSeconds()` and so on); 0 means unknown.
 */
data class InstallReferrerDetails(
    val installReferrer: String?,
    val referrerClickTimestampSeconds: Long = 0,
    val installBeginTimestampSeconds: Long = 0,
    val installBeginTimestampServerSeconds: Long = 0,
)

/**
 * The store library seen through two calls (rules 1, 8, 12): `getPurchases` lists the Play Billing purchases
 * (back-sync; queryPurchasesAsync in an app), `onPurchase` reports new ones as they complete (auto capture) and
 * returns what stops the listening.
 */
interface PurchaseSource {
    fun getPurchases(): List<PurchaseReport>
    fun onPurchase(listener: (PurchaseReport) -> Unit): (() -> Unit)? = null
}

class HttpRequest(val method: String, val url: String, val headers: Map<String, String>, val body: String?)

class HttpResponse(val status: Int, val body: String)

/** One blocking HTTP exchange; throws IOException when no answer came. Called on the SDK's thread only. */
fun interface HttpTransport {
    @Throws(IOException::class)
    fun execute(request: HttpRequest): HttpResponse
}

/** The default transport: java.net.HttpURLConnection (on Android since API 1), one connection per request. */
class UrlConnectionTransport(private val timeoutMs: Int = 15_000) : HttpTransport {
    override fun execute(request: HttpRequest): HttpResponse {
        val conn = URL(request.url).openConnection() as HttpURLConnection
        try {
            conn.requestMethod = request.method
            conn.connectTimeout = timeoutMs
            conn.readTimeout = timeoutMs
            conn.instanceFollowRedirects = false
            conn.useCaches = false
            for ((k, v) in request.headers) conn.setRequestProperty(k, v)
            if (request.body != null) {
                val bytes = Ids.utf8(request.body)
                conn.doOutput = true
                conn.setFixedLengthStreamingMode(bytes.size)
                conn.outputStream.use { it.write(bytes) }
            }
            val status = conn.responseCode
            val stream = if (status >= 400) conn.errorStream else conn.inputStream
            val text = stream?.use { String(it.readBytes(), Charsets.UTF_8) } ?: ""
            return HttpResponse(status, text)
        } finally {
            conn.disconnect()
        }
    }
}
