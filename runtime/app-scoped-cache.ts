// A TTL cache whose entries belong to an app and are dropped when the app-change feed reports that app (or '*').
// It answers only while the feed is live, and refuses to store a value read before a change it has since heard of
// (a per-app generation check), so a reader racing a writer cannot leave a stale entry behind.
import { TtlCache } from './ttl-cache.js';

export interface ChangeFeed {
  isLive(): boolean;
  subscribe(listener: (appId: string) => void): () => void;
  /** New or changed SDK/purchase events of an app ('*': any may have been missed); the dashboard's live view. */
  subscribeEvents?(listener: (appId: string) => void): () => void;
}

export class AppScopedCache<V> {
  /** Boxed, because lru-cache stores no null and null is a value here ("there is none"). */
  private readonly entries: TtlCache<string, { value: V }>;
  private readonly keysByApp = new Map<string, Set<string>>();
  private readonly generations = new Map<string, number>();
  private globalGeneration = 0;

  constructor(
    private readonly feed: ChangeFeed | undefined,
    ttlMs: number,
    maxEntries = 100_000,
  ) {
    this.entries = new TtlCache(ttlMs, maxEntries);
    feed?.subscribe((appId) => (appId === '*' ? this.dropAll() : this.dropApp(appId)));
  }

  /** A token to pass to `set`: captures the app's generation before the read starts. */
  begin(appId: string): string {
    return `${this.globalGeneration}:${this.generations.get(appId) ?? 0}`;
  }

  get(appId: string, key: string): V | undefined {
    if (!this.feed?.isLive()) return undefined;
    return this.entries.get(`${appId}\n${key}`)?.value;
  }

  set(appId: string, key: string, value: V, token: string): void {
    if (!this.feed?.isLive() || token !== this.begin(appId)) return;
    const full = `${appId}\n${key}`;
    this.entries.set(full, { value });
    let keys = this.keysByApp.get(appId);
    if (!keys) this.keysByApp.set(appId, (keys = new Set()));
    keys.add(full);
  }

  /**
   * The cached value, else `load()`'s, stored unless the app changed while it was read (a loader answers null, not
   * undefined, for "there is none", so that absence is cached too).
   */
  async getOrLoad(appId: string, key: string, load: () => Promise<V>): Promise<V> {
    const cached = this.get(appId, key);
    if (cached !== undefined) return cached;
    const token = this.begin(appId);
    const value = await load();
    this.set(appId, key, value, token);
    return value;
  }

  dropApp(appId: string): void {
    this.generations.set(appId, (this.generations.get(appId) ?? 0) + 1);
    for (const key of this.keysByApp.get(appId) ?? []) this.entries.delete(key);
    this.keysByApp.delete(appId);
  }

  private dropAll(): void {
    this.globalGeneration += 1;
    this.generations.clear();
    this.entries.clear();
    this.keysByApp.clear();
  }
}
