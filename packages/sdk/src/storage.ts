// Storage adapters (rule 11). The SDK reads and writes only its own `@svc/*` keys through this interface and never
// clears a whole store: the host app shares localStorage / AsyncStorage with its own data. Every adapter passes
// one conformance suite (test/unit/sdk-storage.test.ts).

export interface StorageAdapter {
  getItem(key: string): Promise<string | null>;
  setItem(key: string, value: string): Promise<void>;
  removeItem(key: string): Promise<void>;
}

/** Rule 11: the local keys, the same on every platform (launch code: web only). */
export const KEYS = {
  attribution: '@svc/attribution',
  code: '@svc/svc_code',
  appUserId: '@svc/app_user_id',
  initialized: '@svc/initialized',
  installId: '@svc/install_id',
  access: '@svc/access',
  launchCode: '@svc/launch_code',
  reportedPurchases: '@svc/reported_purchases',
  /**
   * Not in rule 11 (the spec is silent on unsent work): events and purchases persisted before their first send,
   * removed once the server answered. Present only while something is unsent.
   */
  outbox: '@svc/outbox',
} as const;

export const KEY_PREFIX = '@svc/';

function ownKey(key: string): string {
  if (!key.startsWith(KEY_PREFIX)) throw new Error(`svc: key outside ${KEY_PREFIX}: ${key}`);
  return key;
}

export function memoryStorage(): StorageAdapter {
  const map = new Map<string, string>();
  return {
    getItem: async (key) => map.get(ownKey(key)) ?? null,
    setItem: async (key, value) => {
      map.set(ownKey(key), String(value));
    },
    removeItem: async (key) => {
      map.delete(ownKey(key));
    },
  };
}

/** The synchronous Web Storage shape (window.localStorage), reduced to what the SDK calls. */
export interface WebStorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/**
 * localStorage, or memory when it throws: Safari's private mode (older versions) throws QuotaExceededError on every
 * write, and a sandboxed iframe throws SecurityError on access. Once a call throws, this adapter keeps every key
 * in memory for the rest of the session (copying what it could read), so reads and writes stay consistent.
 */
export function localStorageAdapter(store: WebStorageLike | (() => WebStorageLike | null | undefined)): StorageAdapter {
  const memory = new Map<string, string>();
  let target: WebStorageLike | null = null;
  let failed = false;
  const resolve = (): WebStorageLike | null => {
    if (failed) return null;
    try {
      target ??= (typeof store === 'function' ? store() : store) ?? null;
    } catch {
      target = null;
    }
    if (!target) failed = true;
    return target;
  };
  const attempt = <T>(key: string, op: (s: WebStorageLike) => T, fallback: () => T): T => {
    ownKey(key);
    const s = resolve();
    if (s) {
      try {
        return op(s);
      } catch {
        failed = true;
      }
    }
    return fallback();
  };
  return {
    getItem: async (key) =>
      attempt(
        key,
        (s) => {
          const value = s.getItem(key);
          if (value !== null) memory.set(key, value);
          return value;
        },
        () => memory.get(key) ?? null,
      ),
    setItem: async (key, value) =>
      attempt(
        key,
        (s) => {
          s.setItem(key, value);
          memory.set(key, value);
        },
        () => {
          memory.set(key, value);
        },
      ),
    removeItem: async (key) =>
      attempt(
        key,
        (s) => {
          s.removeItem(key);
          memory.delete(key);
        },
        () => {
          memory.delete(key);
        },
      ),
  };
}

/** The shape of `@react-native-async-storage/async-storage`'s default export, reduced to what the SDK calls. */
export interface AsyncStorageLike {
  getItem(key: string): Promise<string | null>;
  setItem(key: string, value: string): Promise<void>;
  removeItem(key: string): Promise<void>;
}

export function asyncStorageAdapter(store: AsyncStorageLike): StorageAdapter {
  return {
    getItem: async (key) => (await store.getItem(ownKey(key))) ?? null,
    setItem: async (key, value) => {
      await store.setItem(ownKey(key), value);
    },
    removeItem: async (key) => {
      await store.removeItem(ownKey(key));
    },
  };
}

/** JSON values on top of an adapter; unreadable JSON reads as absent (a host or an older SDK wrote it). */
export async function readJson<T>(storage: StorageAdapter, key: string): Promise<T | null> {
  const raw = await storage.getItem(key);
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

export const writeJson = (storage: StorageAdapter, key: string, value: unknown): Promise<void> =>
  storage.setItem(key, JSON.stringify(value));
