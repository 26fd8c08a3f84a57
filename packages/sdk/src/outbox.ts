// Idempotency across a killed process: an event or a purchase report is persisted under `@svc/outbox` with its id
// before its first send and removed only when the server answered (or refused it for good). Whatever a killed
// process left is sent again, with the same event id / the same body, by the next `initialize`.
import { lock } from './single-flight.js';
import { KEYS, readJson, writeJson, type StorageAdapter } from './storage.js';

export type OutboxKind = 'events' | 'purchases';
export type OutboxState = Record<OutboxKind, Record<string, Record<string, unknown>>>;

export class Outbox {
  private readonly lock = lock();
  constructor(private readonly storage: StorageAdapter) {}

  private async read(): Promise<OutboxState> {
    const state = await readJson<Partial<OutboxState>>(this.storage, KEYS.outbox);
    return { events: state?.events ?? {}, purchases: state?.purchases ?? {} };
  }

  private async write(state: OutboxState): Promise<void> {
    const empty = Object.keys(state.events).length === 0 && Object.keys(state.purchases).length === 0;
    if (empty) await this.storage.removeItem(KEYS.outbox);
    else await writeJson(this.storage, KEYS.outbox, state);
  }

  /** Keeps the first body stored under an id: a retry reuses what the first attempt decided. */
  put(kind: OutboxKind, id: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.lock(async () => {
      const state = await this.read();
      const kept = state[kind][id] ?? body;
      state[kind][id] = kept;
      await this.write(state);
      return kept;
    });
  }

  remove(kind: OutboxKind, id: string): Promise<void> {
    return this.lock(async () => {
      const state = await this.read();
      if (!(id in state[kind])) return;
      delete state[kind][id];
      await this.write(state);
    });
  }

  pending(): Promise<OutboxState> {
    return this.lock(() => this.read());
  }
}
