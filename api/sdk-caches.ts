// The API's read caches of per-app data (answers and credential digests), alive only while the app-change feed is
// (runtime/app-change-feed.ts). Without a feed (tests, or the listener connection down) every read goes to PostgreSQL.
import type { InitAnswer, ValidationProviders } from '../db/apps.js';
import { AppScopedCache, type ChangeFeed } from '../runtime/app-scoped-cache.js';
import { TtlCache } from '../runtime/ttl-cache.js';
import type { ActiveCreatorCode } from '../db/creators.js';
import type { FreeAccessCode } from '../db/free-access.js';

// Entries live long because invalidation is push-based; the TTL only bounds a missed notification.
const ENTRY_TTL_MS = 5 * 60_000;

/** What a typed code is: a creator code of an active campaign, else a free-access code (api/sdk/code-lookup.ts). */
export type FoundCode = { kind: 'creator'; creatorCode: ActiveCreatorCode } | { kind: 'free'; freeCode: FreeAccessCode };

export interface ApiCaches {
  initSnapshots: AppScopedCache<InitAnswer>;
  /** Which SDK identities recently wrote their init marker (a write throttle, not an answer cache). */
  initMarks: TtlCache<string, true>;
  codes: AppScopedCache<FoundCode | null>;
  /** Each app's webhook-secret digest (per-app webhook URL): one database read saved on every purchase event. */
  webhookSecrets: AppScopedCache<string | null>;
  /** Each app's store validation choice (whether a provider event is counted): another read saved per event. */
  validationProviders: AppScopedCache<ValidationProviders | null>;
}

export function createApiCaches(feed: ChangeFeed | undefined): ApiCaches {
  return {
    initSnapshots: new AppScopedCache(feed, ENTRY_TTL_MS, 50_000),
    initMarks: new TtlCache(60_000, 200_000),
    codes: new AppScopedCache(feed, ENTRY_TTL_MS, 200_000),
    webhookSecrets: new AppScopedCache(feed, ENTRY_TTL_MS, 50_000),
    validationProviders: new AppScopedCache(feed, ENTRY_TTL_MS, 50_000),
  };
}
