// Client bodies on /sdk/event, /sdk/purchase and /sdk/track-install may use camelCase (SDKs send it); handlers
// see snake_case only. A snake_case field wins when both are present.
// `nested` names the object fields whose own fields take aliases too (track-install's `install_referrer`).
export function snakeCaseAliases<T extends Record<string, unknown>>(
  body: T,
  aliases: Record<string, string>,
  nested: Record<string, Record<string, string>> = {},
): T {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const out: Record<string, unknown> = { ...body };
  for (const [camel, snake] of Object.entries(aliases)) {
    if (camel in out) {
      if (out[snake] === undefined) out[snake] = out[camel];
      delete out[camel];
    }
  }
  for (const [field, inner] of Object.entries(nested)) {
    const value = out[field];
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      out[field] = snakeCaseAliases(value as Record<string, unknown>, inner);
  }
  return out as T;
}

/** The camelCase spelling of every snake_case name, for `snakeCaseAliases`. */
export function camelAliases(names: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    names.filter((n) => n.includes('_')).map((n) => [n.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), n]),
  );
}
