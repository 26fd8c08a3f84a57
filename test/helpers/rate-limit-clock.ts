// The API's rate-limit clock for tests (ApiDeps.rateLimitClock, HarnessOptions.rateLimitClock): the wall clock, except
// while a test holds it still. Requests sent meanwhile all count at one moment, so a check of "at most N per window"
// does not depend on how long a busy machine takes to answer a burst.
export class RateLimitClock {
  private holds = 0;
  private heldAt = 0;

  readonly now = (): number => (this.holds > 0 ? this.heldAt : Date.now());

  /** Runs `fn` with the clock standing at the moment of the call (overlapping holds share the first one's moment). */
  async held<T>(fn: () => Promise<T>): Promise<T> {
    if (this.holds === 0) this.heldAt = Date.now();
    this.holds += 1;
    try {
      return await fn();
    } finally {
      this.holds -= 1;
    }
  }
}
