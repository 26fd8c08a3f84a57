// The SDK package (@svc/sdk, built by `npm test`'s pretest) as a real app against the harness's service. Only the
// app's surroundings are stood in for: its storage (a recording store, shared between "processes" to play a kill
// and restart), the browser's URL bar, and the network, which can be cut per path to play an outage. Every request
// goes to the real service over real HTTP; the client IP is chosen through X-Forwarded-For (TRUST_PROXY).
import { createWebClient, memoryStorage, type FetchLike, type StorageAdapter, type SvcConfig } from '@svc/sdk/web';
import { createReactNativeClient, type AsyncStorageLike } from '@svc/sdk/react-native';
import { IPHONE_UA } from './sdk.js';

export interface Call {
  method: string;
  path: string;
  body: any;
}

/** A store that records every key it was asked for, and refuses `clear()` (the SDK must never call it). */
export function recordingStorage(
  inner: StorageAdapter = memoryStorage(),
): StorageAdapter & { keys: Set<string>; dump: () => Promise<Record<string, string>>; clear(): never } {
  const keys = new Set<string>();
  return {
    keys,
    getItem: (k) => {
      keys.add(k);
      return inner.getItem(k);
    },
    setItem: (k, v) => {
      keys.add(k);
      return inner.setItem(k, v);
    },
    removeItem: (k) => {
      keys.add(k);
      return inner.removeItem(k);
    },
    clear: () => {
      throw new Error('clear() must never be called');
    },
    dump: async () => {
      const out: Record<string, string> = {};
      for (const k of keys) {
        const v = await inner.getItem(k);
        if (v !== null) out[k] = v;
      }
      return out;
    },
  };
}

export interface Network {
  fetch: FetchLike;
  calls: Call[];
  /** Paths (e.g. '/sdk/track-install') whose requests fail as if offline, before reaching the service. */
  down: Set<string>;
  /** Paths whose next request reaches the service but whose answer is lost (the process dies mid-request). */
  loseAnswer: Set<string>;
  /** Called just before each request leaves, with its path. */
  beforeSend?: (path: string) => Promise<void> | void;
  paths: () => string[];
}

export function network(ip: string, userAgent = IPHONE_UA): Network {
  const net: Network = {
    calls: [],
    down: new Set(),
    loseAnswer: new Set(),
    paths: () => net.calls.map((c) => c.path),
    fetch: async (url, init) => {
      const path = new URL(url).pathname.replace(/^\/api/, '');
      net.calls.push({ method: init.method, path, body: init.body ? JSON.parse(init.body) : undefined });
      await net.beforeSend?.(path);
      if (net.down.has(path)) throw new TypeError('fetch failed (offline)');
      const res = await fetch(url, {
        method: init.method,
        body: init.body,
        headers: { ...init.headers, 'x-forwarded-for': ip, 'user-agent': userAgent },
      });
      if (net.loseAnswer.delete(path)) throw new TypeError('connection reset (answer lost)');
      return res;
    },
  };
  return net;
}

export interface WebApp {
  client: ReturnType<typeof createWebClient>;
  net: Network;
  storage: ReturnType<typeof recordingStorage>;
  url: { current: string | null; replaced: string[] };
  clock: { now: number };
  config: SvcConfig;
}

export function webApp(
  baseUrl: string,
  apiKey: string,
  opts: { ip: string; storage?: ReturnType<typeof recordingStorage>; url?: string | null; config?: Partial<SvcConfig>; net?: Network },
): WebApp {
  const storage = opts.storage ?? recordingStorage();
  const net = opts.net ?? network(opts.ip);
  const url = { current: opts.url ?? null, replaced: [] as string[] };
  const clock = { now: Date.now() };
  const client = createWebClient({
    storage,
    fetch: net.fetch,
    now: () => clock.now,
    currentUrl: () => url.current,
    replaceUrl: (u) => {
      url.replaced.push(u);
      url.current = u;
    },
    deviceHints: () => ({ timezone: 'Europe/Berlin', language: 'de-DE' }),
  });
  return { client, net, storage, url, clock, config: { apiKey, baseUrl: `${baseUrl}/api`, ...opts.config } };
}

/** A Map-backed store with AsyncStorage's shape (the native module is not ours and not in Node). */
export function asyncStorageStub(): AsyncStorageLike & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    getItem: async (k) => map.get(k) ?? null,
    setItem: async (k, v) => {
      map.set(k, v);
    },
    removeItem: async (k) => {
      map.delete(k);
    },
  };
}

export function nativeApp(ip: string) {
  const net = network(ip);
  const store = asyncStorageStub();
  return { client: createReactNativeClient({ fetch: net.fetch }), net, store };
}

/** The 302 of a tap on a creator's referral link: the launch URL carrying svc_code and svc_click. */
export async function tapReferralLink(baseUrl: string, slug: string, code: string, ip: string, userAgent = IPHONE_UA): Promise<string> {
  const res = await fetch(`${baseUrl}/${slug}/${code}`, {
    redirect: 'manual',
    headers: { 'user-agent': userAgent, 'x-forwarded-for': ip, accept: 'text/html' },
  });
  if (res.status !== 302) throw new Error(`referral link answered ${res.status}`);
  return res.headers.get('location')!;
}

let ipCounter = 0;
/** A client IP of its own per test (TEST-NET-3 and friends), so IP matching and rate limits never cross tests. */
export function freshIp(): string {
  ipCounter += 1;
  return `198.18.${Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`;
}

export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
