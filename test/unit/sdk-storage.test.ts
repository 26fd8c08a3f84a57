// One conformance suite for every storage adapter of the SDK (memory, localStorage, localStorage that throws as in
// Safari's private mode or a sandboxed frame, AsyncStorage-shaped): values round-trip, only `@svc/*` keys are
// touched, the host's own keys survive, and no adapter ever calls clear(). The stores behind the adapters are
// stand-ins for the browser's and React Native's (systems we do not own), with their documented semantics.
import test from 'ava';
import { asyncStorageAdapter, localStorageAdapter, memoryStorage, type StorageAdapter, type WebStorageLike } from '@svc/sdk';

/** Web Storage semantics over a Map; `failing` makes every call (or only writes) throw, as Safari's private mode does. */
function webStorage(failing: 'none' | 'writes' | 'all' = 'none') {
  const map = new Map<string, string>([['host_token', 'keep-me']]);
  const calls: string[] = [];
  const quota = () => {
    throw Object.assign(new Error('QuotaExceededError'), { name: 'QuotaExceededError' });
  };
  const store: WebStorageLike & { clear(): void } = {
    getItem: (k) => {
      calls.push(`get ${k}`);
      if (failing === 'all') quota();
      return map.get(k) ?? null;
    },
    setItem: (k, v) => {
      calls.push(`set ${k}`);
      if (failing !== 'none') quota();
      map.set(k, String(v));
    },
    removeItem: (k) => {
      calls.push(`remove ${k}`);
      if (failing === 'all') quota();
      map.delete(k);
    },
    clear: () => {
      throw new Error('clear() must never be called');
    },
  };
  return { store, map, calls };
}

function asyncStore() {
  const map = new Map<string, string>([['host_token', 'keep-me']]);
  return {
    map,
    store: {
      getItem: async (k: string) => map.get(k) ?? null,
      setItem: async (k: string, v: string) => {
        map.set(k, v);
      },
      removeItem: async (k: string) => {
        map.delete(k);
      },
      clear: async () => {
        throw new Error('clear() must never be called');
      },
    },
  };
}

const ADAPTERS: { name: string; make: () => { adapter: StorageAdapter; hostKeys?: () => Map<string, string> } }[] = [
  { name: 'memory', make: () => ({ adapter: memoryStorage() }) },
  {
    name: 'localStorage',
    make: () => {
      const w = webStorage();
      return { adapter: localStorageAdapter(w.store), hostKeys: () => w.map };
    },
  },
  {
    name: 'localStorage (lazy getter)',
    make: () => {
      const w = webStorage();
      return { adapter: localStorageAdapter(() => w.store), hostKeys: () => w.map };
    },
  },
  {
    name: 'localStorage whose writes throw (Safari private mode)',
    make: () => {
      const w = webStorage('writes');
      return { adapter: localStorageAdapter(w.store), hostKeys: () => w.map };
    },
  },
  {
    name: 'localStorage that throws on access (sandboxed frame)',
    make: () => ({
      adapter: localStorageAdapter(() => {
        throw new Error('SecurityError');
      }),
    }),
  },
  { name: 'no localStorage (SSR)', make: () => ({ adapter: localStorageAdapter(() => undefined) }) },
  {
    name: 'AsyncStorage',
    make: () => {
      const a = asyncStore();
      return { adapter: asyncStorageAdapter(a.store), hostKeys: () => a.map };
    },
  },
];

for (const { name, make } of ADAPTERS) {
  test(`${name}: values round-trip, removal, absent keys read null`, async (t) => {
    const { adapter } = make();
    t.is(await adapter.getItem('@svc/attribution'), null);
    await adapter.setItem('@svc/attribution', '{"attributed":true}');
    await adapter.setItem('@svc/svc_code', 'ABCD');
    t.is(await adapter.getItem('@svc/attribution'), '{"attributed":true}');
    await adapter.setItem('@svc/svc_code', 'WXYZ');
    t.is(await adapter.getItem('@svc/svc_code'), 'WXYZ', 'overwritten');
    await adapter.removeItem('@svc/attribution');
    t.is(await adapter.getItem('@svc/attribution'), null);
    t.is(await adapter.getItem('@svc/svc_code'), 'WXYZ', 'other keys stay');
    await adapter.removeItem('@svc/never_set');
  });

  test(`${name}: only @svc/* keys are touched; the host's keys survive; clear() is never called`, async (t) => {
    const { adapter, hostKeys } = make();
    for (const key of ['host_token', 'svc_code', '@other/x', '']) {
      await t.throwsAsync(adapter.getItem(key), { message: /outside @svc\// });
      await t.throwsAsync(adapter.setItem(key, 'x'), { message: /outside @svc\// });
      await t.throwsAsync(adapter.removeItem(key), { message: /outside @svc\// });
    }
    await adapter.setItem('@svc/install_id', 'id-1');
    await adapter.removeItem('@svc/install_id');
    if (hostKeys) t.is(hostKeys().get('host_token'), 'keep-me');
    t.false('clear' in adapter);
  });
}

test('localStorage falls back to memory for the rest of the session once a write throws, keeping what it read', async (t) => {
  const w = webStorage('none');
  w.map.set('@svc/install_id', 'stored-before');
  const adapter = localStorageAdapter(w.store);
  t.is(await adapter.getItem('@svc/install_id'), 'stored-before');
  w.store.setItem = () => {
    throw new Error('QuotaExceededError');
  };
  await adapter.setItem('@svc/svc_code', 'ABCD');
  t.is(await adapter.getItem('@svc/svc_code'), 'ABCD', 'served from memory');
  t.is(await adapter.getItem('@svc/install_id'), 'stored-before', 'what was read stays readable');
  t.false(w.map.has('@svc/svc_code'));
});
