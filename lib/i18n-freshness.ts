// Freshness of caller-supplied translations: each locale remembers the SHA-256 of the source text it translates;
// when the source text changes (any way: PATCH, dashboard, SQL) its hash moves on and the locale reads as stale.
import { createHash } from 'node:crypto';

/** BCP-47-ish locale keys accepted for localized copy: `de`, `pt-BR`. */
export const LOCALE_PATTERN = '^[a-z]{2}(-[A-Z]{2})?$';

/** SHA-256 (hex) of the source fields in the given order; null and missing fields hash alike. */
export function sourceHash(fields: readonly string[], source: object): string {
  const canonical = JSON.stringify(fields.map((f) => [f, (source as Record<string, unknown>)[f] ?? null]));
  return createHash('sha256').update(canonical).digest('hex');
}

export type Freshness = 'fresh' | 'stale';

export interface LocaleMeta {
  source_hash: string;
  updated_at: string;
}

export function freshnessOf(meta: Partial<LocaleMeta> | undefined, currentHash: string): Freshness {
  return meta?.source_hash === currentHash ? 'fresh' : 'stale';
}

/** Locales sorted, split by freshness. */
export function summarize(locales: Record<string, { status: Freshness }>): { stale_locales: string[]; fresh_locales: string[] } {
  const keys = Object.keys(locales).sort();
  return {
    stale_locales: keys.filter((k) => locales[k]!.status === 'stale'),
    fresh_locales: keys.filter((k) => locales[k]!.status === 'fresh'),
  };
}
