// What the unit tests stand in for: the network (a scripted HttpTransport that records each request with the
// thread it ran on) and a way to call the suspend API from a JUnit thread.
package com.svc.attribution

import java.io.IOException
import java.util.concurrent.CountDownLatch
import java.util.concurrent.TimeUnit
import kotlin.coroutines.Continuation
import kotlin.coroutines.EmptyCoroutineContext
import kotlin.coroutines.startCoroutine

/** Runs a suspend call from a JUnit thread (shared by the unit and contract tests). */
fun <T> blocking(block: suspend () -> T): T {
    val latch = CountDownLatch(1)
    var result: Result<T>? = null
    block.startCoroutine(Continuation(EmptyCoroutineContext) { result = it; latch.countDown() })
    if (!latch.await(60, TimeUnit.SECONDS)) throw AssertionError("timed out")
    return result!!.getOrThrow()
}

class Call(val method: String, val path: String, val body: Map<String, Any?>?, val thread: String)

/** Answers by path (without the query); a path in `down` fails as if offline. */
class FakeHttp(val base: String = "https://svc.test/api") : HttpTransport {
    val calls = java.util.concurrent.CopyOnWriteArrayList<Call>()
    val down = java.util.concurrent.CopyOnWriteArraySet<String>()
    val answers = java.util.concurrent.ConcurrentHashMap<String, (Call) -> HttpResponse>()

    fun answer(path: String, status: Int = 200, json: Any?) { answers[path] = { HttpResponse(status, Json.write(json)) } }

    fun paths(): List<String> = calls.map { it.path }
    fun last(path: String): Call = calls.last { it.path == path }

    override fun execute(request: HttpRequest): HttpResponse {
        val path = request.url.removePrefix(base).substringBefore('?')
        val call = Call(request.method, path, request.body?.let { asObject(Json.parse(it)) }, Thread.currentThread().name)
        calls.add(call)
        if (path in down) throw IOException("offline")
        val handler = answers[path] ?: return HttpResponse(404, """{"detail":"no answer for $path"}""")
        return handler(call)
    }

    companion object {
        fun standard(storeDirect: Boolean = false): FakeHttp = FakeHttp().apply {
            answer("/sdk/init", json = mapOf("app_id" to "app_1", "app_name" to "Demo", "attribution_window_hours" to 72,
                "campaigns" to listOf(mapOf("id" to "c1", "name" to "Launch", "description" to null)), "store_direct" to storeDirect, "initialized" to true))
            answer("/sdk/track-install", json = mapOf("attributed" to false, "install_recorded" to true, "message" to "No matching click found"))
            answer("/sdk/identify", json = mapOf("identified" to true, "app_user_id" to "u1", "attribution_backfilled" to false))
            answers["/sdk/event"] = { c -> HttpResponse(200, Json.write(mapOf("tracked" to true, "event_id" to c.body!!["eventId"]))) }
        }
    }
}

fun config(vararg tweaks: (SvcConfig) -> SvcConfig): SvcConfig =
    tweaks.fold(SvcConfig(apiKey = "it_test", baseUrl = "https://svc.test/api", retryDelayMs = 50)) { c, f -> f(c) }
