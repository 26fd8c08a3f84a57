// What a client holds once `initialize` ran: its config, storage, outbox and transport. client.ts owns it and hands
// attribution.ts and reports.ts two readers: the session or null, and the session ready for a call.
import type { Transport } from './http.js';
import type { Outbox } from './outbox.js';
import type { StorageAdapter } from './storage.js';
import type { BaseConfig, ClientPlatform } from './types.js';

export interface Session<Config extends BaseConfig = BaseConfig> {
  config: Config;
  storage: StorageAdapter;
  transport: Transport;
  outbox: Outbox;
}

/** The session; null until the first initialize, replaced by a later one with another key. */
export type CurrentSession = () => Session | null;
/** The session with its platform; throws SvcError before initialize (calls that must not throw catch it). */
export type ReadySession = () => Session & { platform: ClientPlatform };
