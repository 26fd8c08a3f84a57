// A small JSON reader and writer of our own: Android's org.json is not on the JVM these tests run on, and another
// library would be one more dependency for apps to carry. Values are null, Boolean, String, Long/Int/Double,
// List<Any?> and Map<String, Any?> (insertion-ordered). The writer spells strings and numbers as JavaScript's
// JSON.stringify does, so canonicalJson hashes the same bytes as packages/sdk/src/event-key.ts (rule 5).
package com.svc.attribution

import java.math.BigDecimal

/** Raised for text that is not JSON. */
class JsonException(message: String) : RuntimeException(message)

object Json {
    fun parse(text: String): Any? {
        val reader = Reader(text)
        reader.space()
        val value = reader.value()
        reader.space()
        if (reader.i != text.length) throw JsonException("trailing characters at ${reader.i}")
        return value
    }

    fun write(value: Any?): String = StringBuilder().also { writeTo(it, value, false) }.toString()

    /** JSON with object keys sorted at every level (UTF-16 order, as JavaScript's sort). */
    fun canonical(value: Any?): String = StringBuilder().also { writeTo(it, value, true) }.toString()

    private fun writeTo(out: StringBuilder, value: Any?, sorted: Boolean) {
        when (value) {
            null -> out.append("null")
            is Boolean -> out.append(value.toString())
            is String -> quote(out, value)
            is Int, is Long, is Short, is Byte -> out.append(value.toString())
            is Float -> out.append(number(value.toString().toDouble()))
            is Number -> out.append(number(value.toDouble()))
            is Map<*, *> -> {
                val keys = value.keys.map { it.toString() }.let { if (sorted) it.sorted() else it }
                out.append('{')
                var first = true
                for (k in keys) {
                    val v = value[k]
                    if (v == null && !value.containsKey(k)) continue
                    if (!first) out.append(',')
                    first = false
                    quote(out, k)
                    out.append(':')
                    writeTo(out, v, sorted)
                }
                out.append('}')
            }
            is Iterable<*> -> {
                out.append('[')
                var first = true
                for (v in value) {
                    if (!first) out.append(',')
                    first = false
                    writeTo(out, v, sorted)
                }
                out.append(']')
            }
            is Array<*> -> writeTo(out, value.asList(), sorted)
            else -> quote(out, value.toString())
        }
    }

    /** JSON.stringify's string form: the short escapes, \u00XX for other controls, lone surrogates as \uDXXX. */
    private fun quote(out: StringBuilder, s: String) {
        out.append('"')
        var i = 0
        while (i < s.length) {
            val c = s[i]
            when {
                c == '"' -> out.append("\\\"")
                c == '\\' -> out.append("\\\\")
                c == '\n' -> out.append("\\n")
                c == '\r' -> out.append("\\r")
                c == '\t' -> out.append("\\t")
                c == '\b' -> out.append("\\b")
                c == '\u000C' -> out.append("\\f")
                c < ' ' -> out.append("\\u").append(hex4(c.code))
                Character.isHighSurrogate(c) && i + 1 < s.length && Character.isLowSurrogate(s[i + 1]) -> {
                    out.append(c).append(s[i + 1])
                    i++
                }
                Character.isSurrogate(c) -> out.append("\\u").append(hex4(c.code))
                else -> out.append(c)
            }
            i++
        }
        out.append('"')
    }

    private fun hex4(code: Int): String = Integer.toHexString(code or 0x10000).substring(1)

    /**
     * Number::toString of ECMAScript for a double: integers in full below 1e21, otherwise the shortest digits
     * (Java's Double.toString) placed as JavaScript places them (plain from 1e-7 to 1e21, else d.ddde±n).
     */
    internal fun number(d: Double): String {
        if (d.isNaN() || d.isInfinite()) return "null"
        if (d == 0.0) return "0"
        val neg = d < 0
        val decimal = BigDecimal(java.lang.Double.toString(Math.abs(d))).stripTrailingZeros()
        val digits = decimal.unscaledValue().toString()
        val k = digits.length
        val n = k - decimal.scale() // the decimal point sits after n digits
        val body = when {
            n in k..21 -> digits + "0".repeat(n - k)
            n in 1..21 -> digits.substring(0, n) + "." + digits.substring(n)
            n in -5..0 -> "0." + "0".repeat(-n) + digits
            else -> {
                val e = n - 1
                val mantissa = if (k == 1) digits else digits[0] + "." + digits.substring(1)
                mantissa + "e" + (if (e >= 0) "+" else "-") + Math.abs(e)
            }
        }
        return if (neg) "-$body" else body
    }

    private class Reader(val s: String) {
        var i = 0

        fun space() {
            while (i < s.length && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t')) i++
        }

        fun value(): Any? {
            if (i >= s.length) throw JsonException("unexpected end")
            return when (val c = s[i]) {
                '{' -> obj()
                '[' -> arr()
                '"' -> str()
                't' -> word("true", true)
                'f' -> word("false", false)
                'n' -> word("null", null)
                else -> if (c == '-' || c in '0'..'9') num() else throw JsonException("unexpected '$c' at $i")
            }
        }

        private fun word(w: String, v: Any?): Any? {
            if (!s.startsWith(w, i)) throw JsonException("bad literal at $i")
            i += w.length
            return v
        }

        private fun expect(c: Char) {
            if (i >= s.length || s[i] != c) throw JsonException("expected '$c' at $i")
            i++
        }

        private fun obj(): Map<String, Any?> {
            val map = LinkedHashMap<String, Any?>()
            expect('{')
            space()
            if (i < s.length && s[i] == '}') {
                i++
                return map
            }
            while (true) {
                space()
                val key = str()
                space()
                expect(':')
                space()
                map[key] = value()
                space()
                if (i < s.length && s[i] == ',') {
                    i++
                    continue
                }
                expect('}')
                return map
            }
        }

        private fun arr(): List<Any?> {
            val list = ArrayList<Any?>()
            expect('[')
            space()
            if (i < s.length && s[i] == ']') {
                i++
                return list
            }
            while (true) {
                space()
                list.add(value())
                space()
                if (i < s.length && s[i] == ',') {
                    i++
                    continue
                }
                expect(']')
                return list
            }
        }

        private fun str(): String {
            expect('"')
            val out = StringBuilder()
            while (true) {
                if (i >= s.length) throw JsonException("unterminated string")
                val c = s[i++]
                when {
                    c == '"' -> return out.toString()
                    c == '\\' -> {
                        if (i >= s.length) throw JsonException("unterminated escape")
                        when (val e = s[i++]) {
                            '"', '\\', '/' -> out.append(e)
                            'b' -> out.append('\b')
                            'f' -> out.append('\u000C')
                            'n' -> out.append('\n')
                            'r' -> out.append('\r')
                            't' -> out.append('\t')
                            'u' -> {
                                if (i + 4 > s.length) throw JsonException("bad \\u escape")
                                out.append(s.substring(i, i + 4).toIntOrNull(16)?.toChar() ?: throw JsonException("bad \\u escape"))
                                i += 4
                            }
                            else -> throw JsonException("bad escape \\$e")
                        }
                    }
                    c < ' ' -> throw JsonException("control character in string at ${i - 1}")
                    else -> out.append(c)
                }
            }
        }

        private fun num(): Number {
            val start = i
            if (s[i] == '-') i++
            while (i < s.length && (s[i].isDigit() || s[i] in ".eE+-")) i++
            val text = s.substring(start, i)
            val whole = text.indexOfAny(charArrayOf('.', 'e', 'E')) < 0
            return (if (whole) text.toLongOrNull() else null) ?: text.toDoubleOrNull() ?: throw JsonException("bad number '$text'")
        }
    }
}

// Typed reads of parsed JSON objects: absent and wrongly typed fields read as null.
internal fun Map<String, Any?>.str(key: String): String? = this[key] as? String
internal fun Map<String, Any?>.bool(key: String): Boolean? = this[key] as? Boolean
internal fun Map<String, Any?>.num(key: String): Number? = this[key] as? Number

@Suppress("UNCHECKED_CAST")
internal fun Map<String, Any?>.obj(key: String): Map<String, Any?>? = this[key] as? Map<String, Any?>

@Suppress("UNCHECKED_CAST")
internal fun Map<String, Any?>.list(key: String): List<Any?>? = this[key] as? List<Any?>

@Suppress("UNCHECKED_CAST")
internal fun asObject(value: Any?): Map<String, Any?>? = value as? Map<String, Any?>
