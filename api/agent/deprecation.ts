// How a deprecated endpoint of the agent API announces itself (docs/compatibility.md): every answer carries
// `Deprecation` (RFC 9745: `@` and the Unix time it was deprecated), `Sunset` (RFC 8594: the HTTP date after which
// it may be gone) and `Link`s to the OpenAPI document (rel="deprecation") and to its successor (rel="successor-version");
// the OpenAPI operation says `deprecated: true` with the same dates in its description; the MCP tool's description
// starts with the same sentence. The dates live on the endpoint row (api/agent/endpoints.ts `deprecated`).
import type { Middleware } from '../context.js';

export interface Deprecation {
  /** The day it was deprecated (YYYY-MM-DD, UTC). */
  since: string;
  /** The first day it may be gone (YYYY-MM-DD, UTC): at least DEPRECATION_MIN_DAYS after `since`. */
  sunset: string;
  /** What to call instead: `METHOD /api/agent/...` (or a field name, for a field). */
  successor: string;
}

/** The shortest time between announcing a deprecation and removing it (docs/compatibility.md). */
export const DEPRECATION_MIN_DAYS = 180;
/** The Link rel="deprecation" target: the OpenAPI document, whose operation says the same sentence. */
export const DEPRECATION_INFO_PATH = '/api/agent/openapi.json';

const day = (date: string) => new Date(`${date}T00:00:00Z`);

/** Throws on a row that breaks the policy (so the table cannot announce a shorter notice). */
export function checkDeprecation(d: Deprecation): void {
  const days = (day(d.sunset).getTime() - day(d.since).getTime()) / 86_400_000;
  if (!Number.isFinite(days) || days < DEPRECATION_MIN_DAYS)
    throw new Error(`A deprecation needs at least ${DEPRECATION_MIN_DAYS} days of notice (${d.since} to ${d.sunset})`);
}

/** The sentence every place says: docs, OpenAPI description, tool description. */
export function deprecationSentence(d: Deprecation): string {
  return `Deprecated since ${d.since}; may be removed after ${d.sunset}. Use ${d.successor} instead.`;
}

/** The headers of every answer of a deprecated endpoint; the successor is linked when it is a call of this server. */
export function deprecationHeaders(d: Deprecation, baseUrl: string): Record<string, string> {
  const successor = /^[A-Z]+ (\/\S*)$/.exec(d.successor)?.[1];
  const links = [`<${baseUrl}${DEPRECATION_INFO_PATH}>; rel="deprecation"; type="application/json"`];
  if (successor) links.push(`<${baseUrl}${successor}>; rel="successor-version"`);
  return {
    Deprecation: `@${Math.floor(day(d.since).getTime() / 1000)}`,
    Sunset: day(d.sunset).toUTCString(),
    Link: links.join(', '),
  };
}

/** First in a deprecated endpoint's chain: set before the handler runs, so error answers carry them too. */
export function announceDeprecation(d: Deprecation): Middleware {
  checkDeprecation(d);
  return async (ctx, next) => {
    ctx.set(deprecationHeaders(d, ctx.deps.config.BASE_URL));
    await next();
  };
}

/** What a deprecated operation adds to the OpenAPI document. */
export function deprecatedOperation(d: Deprecation, summary: string): { deprecated: true; description: string } {
  return { deprecated: true, description: `${summary}. ${deprecationSentence(d)}` };
}
