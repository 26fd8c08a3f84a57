// The client API transport: one JSON request per call, the SDK key as a bearer token; and the outbox, where events
// and purchase reports wait under @svc/outbox from before their first send until the server answered (or refused
// them for good), so a killed or offline process sends them again with the same body (packages/sdk/src/outbox.ts).
package com.svc.attribution

import java.io.IOException

internal class Transport(baseUrl: String, private val apiKey: String, private val http: HttpTransport) {
    private val base = baseUrl.trimEnd('/')

    /** The 2xx body parsed; throws SvcException otherwise (status null: no answer). */
    fun call(method: String, path: String, body: Map<String, Any?>? = null): Any? {
        val headers = LinkedHashMap<String, String>()
        headers["Authorization"] = "Bearer $apiKey"
        headers["Accept"] = "application/json"
        if (body != null) headers["Content-Type"] = "application/json"
        val res = try {
            http.execute(HttpRequest(method, base + path, headers, body?.let { Json.write(it) }))
        } catch (e: IOException) {
            throw SvcException("svc: network error on $path: ${e.message}", null)
        } catch (e: RuntimeException) {
            throw SvcException("svc: network error on $path: ${e.message}", null)
        }
        val parsed: Any? = try { if (res.body.isEmpty()) null else Json.parse(res.body) } catch (e: JsonException) { res.body }
        if (res.status in 200..299) return parsed
        val detail = asObject(parsed)?.get("detail") ?: parsed
        throw SvcException("svc: $path answered ${res.status}" + (if (detail is String) ": $detail" else ""), res.status, detail)
    }

    fun obj(method: String, path: String, body: Map<String, Any?>? = null): Map<String, Any?> =
        asObject(call(method, path, body)) ?: throw SvcException("svc: $path answered no JSON object", 200)
}

/** A request body without its absent fields (JSON.stringify drops undefined the same way). */
internal fun fields(vararg pairs: Pair<String, Any?>): Map<String, Any?> {
    val out = LinkedHashMap<String, Any?>()
    for ((k, v) in pairs) if (v != null) out[k] = v
    return out
}

internal class Outbox(private val store: KeyValueStore) {
    enum class Kind(val key: String) { EVENTS("events"), PURCHASES("purchases") }

    @Synchronized
    private fun read(): MutableMap<String, MutableMap<String, Map<String, Any?>>> {
        val state = try { asObject(store.get(Keys.OUTBOX)?.let { Json.parse(it) }) } catch (e: JsonException) { null }
        val out = LinkedHashMap<String, MutableMap<String, Map<String, Any?>>>()
        for (kind in Kind.values()) {
            val entries = LinkedHashMap<String, Map<String, Any?>>()
            state?.obj(kind.key)?.forEach { (id, body) -> asObject(body)?.let { entries[id] = it } }
            out[kind.key] = entries
        }
        return out
    }

    private fun write(state: Map<String, Map<String, Map<String, Any?>>>) {
        if (state.values.all { it.isEmpty() }) store.remove(Keys.OUTBOX) else store.set(Keys.OUTBOX, Json.write(state))
    }

    /** Keeps the first body stored under an id: a retry reuses what the first attempt decided. */
    @Synchronized
    fun put(kind: Kind, id: String, body: Map<String, Any?>): Map<String, Any?> {
        val state = read()
        val kept = state.getValue(kind.key)[id] ?: body
        state.getValue(kind.key)[id] = kept
        write(state)
        return kept
    }

    @Synchronized
    fun remove(kind: Kind, id: String) {
        val state = read()
        if (state.getValue(kind.key).remove(id) != null) write(state)
    }

    @Synchronized
    fun pending(kind: Kind): Map<String, Map<String, Any?>> = read().getValue(kind.key)
}
