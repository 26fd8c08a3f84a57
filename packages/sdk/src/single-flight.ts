// One promise per operation key while it runs: a React double mount (or two screens) calling initialize or
// checkAttribution at once shares one request instead of sending two.
export class SingleFlight {
  private readonly running = new Map<string, Promise<unknown>>();

  run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const existing = this.running.get(key);
    if (existing) return existing as Promise<T>;
    const p = fn().finally(() => { this.running.delete(key); });
    this.running.set(key, p);
    return p;
  }
}

/** Serialises read-modify-write sequences on one storage key (JavaScript is single-threaded, storage is async). */
export class Lock {
  private tail: Promise<unknown> = Promise.resolve();

  with<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.tail.then(fn, fn);
    this.tail = next.catch(() => undefined);
    return next;
  }
}
