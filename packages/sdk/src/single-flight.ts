// One promise per operation key while it runs: a React double mount (or two screens) calling initialize or
// checkAttribution at once shares one request instead of sending two.
export type SingleFlight = <T>(key: string, fn: () => Promise<T>) => Promise<T>;

export function singleFlight(): SingleFlight {
  const running = new Map<string, Promise<unknown>>();
  return <T>(key: string, fn: () => Promise<T>): Promise<T> => {
    let p = running.get(key) as Promise<T> | undefined;
    if (!p) {
      p = fn().finally(() => {
        running.delete(key);
      });
      running.set(key, p);
    }
    return p;
  };
}

/** Serialises read-modify-write sequences on one storage key (JavaScript is single-threaded, storage is async). */
export type Lock = <T>(fn: () => Promise<T>) => Promise<T>;

export function lock(): Lock {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(fn: () => Promise<T>): Promise<T> => {
    const next = tail.then(fn, fn);
    tail = next.catch(() => undefined);
    return next;
  };
}
