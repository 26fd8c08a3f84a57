// Ids the SDK makes: random UUID v4 (install id, event ids), the derived event id of funnel milestones (rule 5) and
// the obfuscated account id of rule 7. The digests are byte for byte those of packages/sdk/src/event-key.ts and
// ids.ts (the server's dedup keys, lib/event-dedup.ts), so an Android app and the server agree on every id.
package com.svc.attribution

import java.security.MessageDigest
import java.security.SecureRandom

object Ids {
    /** Funnel milestones the server keeps once per user and property set (spec "POST /sdk/event"). */
    val SINGLETON_EVENT_TYPES: Set<String> = setOf("trial_started", "subscription_purchased", "subscription_renewed")

    private val random by lazy { SecureRandom() }

    /** UTF-8 as JavaScript's TextEncoder writes it: a lone surrogate becomes U+FFFD (Java's encoder writes '?'). */
    fun utf8(text: String): ByteArray {
        val out = java.io.ByteArrayOutputStream(text.length + 8)
        var i = 0
        while (i < text.length) {
            var c = text.codePointAt(i)
            i += Character.charCount(c)
            if (c in 0xD800..0xDFFF) c = 0xFFFD
            when {
                c < 0x80 -> out.write(c)
                c < 0x800 -> { out.write(0xC0 or (c shr 6)); out.write(0x80 or (c and 63)) }
                c < 0x10000 -> { out.write(0xE0 or (c shr 12)); out.write(0x80 or ((c shr 6) and 63)); out.write(0x80 or (c and 63)) }
                else -> {
                    out.write(0xF0 or (c shr 18)); out.write(0x80 or ((c shr 12) and 63))
                    out.write(0x80 or ((c shr 6) and 63)); out.write(0x80 or (c and 63))
                }
            }
        }
        return out.toByteArray()
    }

    fun sha256(bytes: ByteArray): ByteArray = MessageDigest.getInstance("SHA-256").digest(bytes)

    fun hex(bytes: ByteArray): String {
        val sb = StringBuilder(bytes.size * 2)
        for (b in bytes) sb.append(Integer.toHexString((b.toInt() and 0xFF) or 0x100).substring(1))
        return sb.toString()
    }

    fun sha256Hex(text: String): String = hex(sha256(utf8(text)))

    /** 16 bytes laid out as a UUID with the given version nibble and the RFC 4122 variant. */
    internal fun layout(bytes: ByteArray, version: Int): String {
        val b = bytes.copyOf(16)
        b[6] = ((b[6].toInt() and 0x0F) or (version shl 4)).toByte()
        b[8] = ((b[8].toInt() and 0x3F) or 0x80).toByte()
        val h = hex(b)
        return "${h.substring(0, 8)}-${h.substring(8, 12)}-${h.substring(12, 16)}-${h.substring(16, 20)}-${h.substring(20, 32)}"
    }

    fun uuidV4(): String = layout(ByteArray(16).also { random.nextBytes(it) }, 4)

    /** The server's singleton dedup key (hex), or null for event types that are not funnel milestones. */
    fun singletonKey(eventType: String, appUserId: String, properties: Map<String, Any?>): String? =
        if (eventType in SINGLETON_EVENT_TYPES) sha256Hex(Json.canonical(listOf("singleton", eventType, appUserId, properties))) else null

    /**
     * Rule 5: `trial_started`, `subscription_purchased`, `subscription_renewed` get an id derived from event type,
     * user and properties (the singleton key laid out as a UUID v4), so every retry and reinstall sends the same id.
     */
    fun derivedEventId(eventType: String, appUserId: String, properties: Map<String, Any?>): String? =
        singletonKey(eventType, appUserId, properties)?.let { key ->
            layout(ByteArray(16) { i -> key.substring(i * 2, i * 2 + 2).toInt(16).toByte() }, 4)
        }

    /**
     * Rule 7 (Android): the value for BillingFlowParams.Builder().setObfuscatedAccountId: the SHA-256 hex of the user
     * id (64 characters, Play's limit), stable per user and not the user id itself.
     */
    fun obfuscatedAccountId(appUserId: String): String = sha256Hex(appUserId)
}
