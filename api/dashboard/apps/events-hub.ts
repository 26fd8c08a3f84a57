// Fans the app event feed out to the open event streams of one API process. The process's single LISTEN connection
// (runtime/app-change-feed.ts) says which app has news; one reader per (app, environment filter) then reads the
// feed after its cursor and hands each subscriber the entries past the subscriber's own cursor. Reading "after a
// cursor" rather than trusting notification payloads means coalesced or missed notifications (a reconnect says '*')
// never leave a gap: seq order is commit order per app (schema migration 0024).
import type { Knex } from 'knex';
import { latestFeedSeq, readFeedAfter, type FeedEntry } from '../../../db/app-event-feed.js';
import type { EnvironmentFilter } from '../../../db/recent-events.js';
import type { ChangeFeed } from '../../../runtime/app-scoped-cache.js';
import type { Logger } from '../../../runtime/logger.js';

export const FEED_PAGE = 500;

export interface StreamSubscriber {
  appId: string;
  environment?: EnvironmentFilter;
  /** The last seq this subscriber has seen; entries at or below it are not handed over again. */
  cursor: number;
  deliver(entries: FeedEntry[]): void;
}

interface Reader {
  appId: string;
  environment?: EnvironmentFilter;
  cursor: number;
  ready: Promise<void>;
  subscribers: Set<StreamSubscriber>;
  pulling: boolean;
  again: boolean;
}

class AppEventHub {
  private readonly readers = new Map<string, Reader>();

  constructor(
    private readonly db: Knex,
    feed: ChangeFeed & Required<Pick<ChangeFeed, 'subscribeEvents'>>,
    private readonly logger: Logger,
  ) {
    feed.subscribeEvents((appId) => {
      for (const reader of this.readers.values()) if (appId === '*' || reader.appId === appId) this.pull(reader);
    });
  }

  /**
   * Registers the subscriber, then resolves once its reader is positioned. Entries committed after that moment
   * reach `deliver`; the caller reads anything before (its catch-up from the database) and skips what it saw.
   */
  async subscribe(sub: StreamSubscriber): Promise<() => void> {
    const key = `${sub.appId}|${sub.environment ?? ''}`;
    let reader = this.readers.get(key);
    if (!reader) {
      const created: Reader = {
        appId: sub.appId,
        environment: sub.environment,
        cursor: 0,
        ready: Promise.resolve(),
        subscribers: new Set(),
        pulling: false,
        again: false,
      };
      created.ready = latestFeedSeq(this.db, sub.appId).then((seq) => {
        created.cursor = Math.max(created.cursor, seq);
      });
      this.readers.set(key, created);
      reader = created;
    }
    reader.subscribers.add(sub);
    const r = reader;
    await r.ready;
    return () => {
      r.subscribers.delete(sub);
      if (r.subscribers.size === 0 && this.readers.get(key) === r) this.readers.delete(key);
    };
  }

  /** Reads everything after the reader's cursor; a notification during a read makes it read once more after. */
  private pull(reader: Reader): void {
    if (reader.pulling) {
      reader.again = true;
      return;
    }
    reader.pulling = true;
    void (async () => {
      try {
        await reader.ready;
        do {
          reader.again = false;
          let more = true;
          while (more) {
            const page = await readFeedAfter(this.db, reader.appId, {
              after: reader.cursor,
              environment: reader.environment,
              limit: FEED_PAGE,
            });
            reader.cursor = page.cursor;
            more = page.more;
            if (page.entries.length === 0) continue;
            for (const sub of reader.subscribers) {
              const fresh = page.entries.filter((e) => e.seq > sub.cursor);
              if (fresh.length) sub.deliver(fresh);
            }
          }
        } while (reader.again);
      } catch (err) {
        // The next notification (or reconnect) reads again from the same cursor: nothing is skipped.
        this.logger.warn({ err, appId: reader.appId }, 'event stream read failed');
      } finally {
        reader.pulling = false;
      }
    })();
  }
}

const hubs = new WeakMap<object, AppEventHub>();

/** The process's hub over its change feed (one per feed), or undefined when the API runs without one. */
export function eventHubOf(db: Knex, feed: ChangeFeed | undefined, logger: Logger): AppEventHub | undefined {
  if (!feed?.subscribeEvents) return undefined;
  let hub = hubs.get(feed);
  if (!hub) {
    hub = new AppEventHub(db, feed as ChangeFeed & Required<Pick<ChangeFeed, 'subscribeEvents'>>, logger);
    hubs.set(feed, hub);
  }
  return hub;
}
