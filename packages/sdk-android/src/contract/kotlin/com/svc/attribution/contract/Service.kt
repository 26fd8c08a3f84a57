// The real service for the contract tests, as test/integration/sdk-android.test.ts started it (the test harness:
// real PostgreSQL, Temporal, HTTP; Google Play and the ECB are the project's stubs). What the app cannot do itself
// (set a Play purchase in Google's stub, take the ECB down) goes through that test's control endpoint.
package com.svc.attribution.contract

import com.svc.attribution.HttpRequest
import com.svc.attribution.HttpResponse
import com.svc.attribution.HttpTransport
import com.svc.attribution.Json
import com.svc.attribution.MemoryStore
import com.svc.attribution.SvcClient
import com.svc.attribution.SvcConfig
import com.svc.attribution.UrlConnectionTransport
import java.io.IOException
import java.net.HttpURLConnection
import java.net.URL
import java.net.URLDecoder
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.CopyOnWriteArraySet
import java.util.concurrent.atomic.AtomicInteger

object Service {
    private fun prop(name: String): String = System.getProperty("svc.$name") ?: throw IllegalStateException("-Dsvc.$name is not set")
    val baseUrl: String get() = prop("baseUrl")
    val apiBase: String get() = "$baseUrl/api"
    val sdkKey: String get() = prop("sdkKey")
    val slug: String get() = prop("slug")
    val creatorCode: String get() = prop("creatorCode")
    val campaignId: String get() = prop("campaignId")
    val storeSdkKey: String get() = prop("storeSdkKey")
    val storeCreatorCode: String get() = prop("storeCreatorCode")
    private val control: String get() = prop("control")

    const val ANDROID_UA = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36"
    private val ipCounter = AtomicInteger((System.nanoTime() % 200).toInt())

    /** A client IP of its own per scenario (TEST-NET-2), so IP matching never crosses tests. */
    fun freshIp(): String = ipCounter.incrementAndGet().let { "198.51.${(it / 250) % 250}.${it % 250 + 1}" }

    /** POST to the test's control endpoint (stubs of Google Play and the ECB). */
    fun control(action: String, body: Map<String, Any?>) {
        val conn = URL("$control/$action").openConnection() as HttpURLConnection
        conn.requestMethod = "POST"
        conn.doOutput = true
        conn.setRequestProperty("Content-Type", "application/json")
        conn.outputStream.use { it.write(Json.write(body).toByteArray(Charsets.UTF_8)) }
        if (conn.responseCode != 204) throw AssertionError("control $action answered ${conn.responseCode}")
        conn.disconnect()
    }

    /**
     * A tap on the creator's referral link from an Android phone: the 302 to Google Play, whose `referrer` parameter
     * is what the Play Install Referrer API hands the installed app.
     */
    fun tapReferralLink(ip: String, code: String = creatorCode): String {
        val conn = URL("$baseUrl/$slug/$code").openConnection() as HttpURLConnection
        conn.instanceFollowRedirects = false
        conn.setRequestProperty("User-Agent", ANDROID_UA)
        conn.setRequestProperty("X-Forwarded-For", ip)
        conn.setRequestProperty("Accept", "text/html")
        if (conn.responseCode != 302) throw AssertionError("referral link answered ${conn.responseCode}")
        val location = conn.getHeaderField("Location")
        conn.disconnect()
        val query = location.substringAfter('?', "")
        val referrer = query.split('&').firstOrNull { it.startsWith("referrer=") } ?: throw AssertionError("no referrer in $location")
        return URLDecoder.decode(referrer.removePrefix("referrer="), "UTF-8")
    }

    /** GET on the client API with an SDK key (recent-conversions: what the service recorded for a user). */
    @Suppress("UNCHECKED_CAST")
    fun clientGet(path: String, key: String): Map<String, Any?> {
        val res = UrlConnectionTransport().execute(HttpRequest("GET", apiBase + path, mapOf("Authorization" to "Bearer $key"), null))
        if (res.status != 200) throw AssertionError("$path answered ${res.status}: ${res.body}")
        return Json.parse(res.body) as Map<String, Any?>
    }
}

class Sent(val method: String, val path: String, val body: Map<String, Any?>?)

/** The phone's network: real HTTP to the service from its own client IP; paths can be cut to play an outage. */
class PhoneNetwork(val ip: String = Service.freshIp()) : HttpTransport {
    private val http = UrlConnectionTransport(20_000)
    val calls = CopyOnWriteArrayList<Sent>()
    val down = CopyOnWriteArraySet<String>()

    fun paths(): List<String> = calls.map { it.path }
    fun last(path: String): Sent = calls.last { it.path == path }

    @Suppress("UNCHECKED_CAST")
    override fun execute(request: HttpRequest): HttpResponse {
        val path = request.url.removePrefix(Service.apiBase).substringBefore('?')
        calls.add(Sent(request.method, path, request.body?.let { Json.parse(it) as Map<String, Any?> }))
        if (path in down) throw IOException("offline")
        return http.execute(HttpRequest(request.method, request.url, request.headers + mapOf("X-Forwarded-For" to ip, "User-Agent" to Service.ANDROID_UA), request.body))
    }
}

/** An app on one phone: the SDK client, its storage and its network. */
class Phone(val net: PhoneNetwork = PhoneNetwork(), val store: MemoryStore = MemoryStore()) {
    val client = SvcClient(net)
    fun config(key: String = Service.sdkKey, tweak: (SvcConfig) -> SvcConfig = { it }) =
        tweak(SvcConfig(apiKey = key, baseUrl = Service.apiBase, retryDelayMs = 300))
}

fun waitFor(what: String, condition: () -> Boolean) {
    val until = System.currentTimeMillis() + 20_000
    while (!condition()) {
        if (System.currentTimeMillis() > until) throw AssertionError("timed out waiting for $what")
        Thread.sleep(50)
    }
}
