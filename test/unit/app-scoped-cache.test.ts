import test from 'ava';
import { AppScopedCache, type ChangeFeed } from '../../runtime/app-scoped-cache.js';

class ManualFeed implements ChangeFeed {
  live = true;
  private readonly listeners = new Set<(appId: string) => void>();
  isLive() {
    return this.live;
  }
  subscribe(l: (appId: string) => void) {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }
  change(appId: string) {
    for (const l of this.listeners) l(appId);
  }
}

test('entries answer while the feed is live and are dropped per app on change', (t) => {
  const feed = new ManualFeed();
  const cache = new AppScopedCache<string>(feed, 60_000);
  cache.set('a', 'k', 'va', cache.begin('a'));
  cache.set('b', 'k', 'vb', cache.begin('b'));
  t.is(cache.get('a', 'k'), 'va');
  feed.change('a');
  t.is(cache.get('a', 'k'), undefined);
  t.is(cache.get('b', 'k'), 'vb');
  feed.change('*');
  t.is(cache.get('b', 'k'), undefined);
});

test('a value read before a change is not stored after it', (t) => {
  const feed = new ManualFeed();
  const cache = new AppScopedCache<string>(feed, 60_000);
  const token = cache.begin('a');
  feed.change('a'); // the change lands while the read is in flight
  cache.set('a', 'k', 'stale', token);
  t.is(cache.get('a', 'k'), undefined);
  const tokenAll = cache.begin('a');
  feed.change('*');
  cache.set('a', 'k', 'stale', tokenAll);
  t.is(cache.get('a', 'k'), undefined);
});

test('nothing is answered or stored while the feed is down, or without a feed', (t) => {
  const feed = new ManualFeed();
  const cache = new AppScopedCache<string>(feed, 60_000);
  cache.set('a', 'k', 'v', cache.begin('a'));
  feed.live = false;
  t.is(cache.get('a', 'k'), undefined);
  cache.set('a', 'k2', 'v2', cache.begin('a'));
  feed.live = true;
  t.is(cache.get('a', 'k2'), undefined);
  const none = new AppScopedCache<string>(undefined, 60_000);
  none.set('a', 'k', 'v', none.begin('a'));
  t.is(none.get('a', 'k'), undefined);
});

test('getOrLoad: loads once and answers from the cache after, null included; a change during the load stores nothing', async (t) => {
  const feed = new ManualFeed();
  const cache = new AppScopedCache<string | null>(feed, 60_000);
  let loads = 0;
  const load = async () => {
    loads += 1;
    return null;
  };
  t.is(await cache.getOrLoad('a', 'k', load), null);
  t.is(await cache.getOrLoad('a', 'k', load), null);
  t.is(loads, 1, 'an absent value is cached too');
  const racing = async () => {
    loads += 1;
    feed.change('b');
    return 'stale';
  };
  t.is(await cache.getOrLoad('b', 'k', racing), 'stale', 'the caller still gets what it read');
  t.is(cache.get('b', 'k'), undefined, 'but it is not kept');
});
