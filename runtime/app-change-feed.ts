// Listens on `svc_app_changed` (schema migration 0010) with one dedicated connection per API process and tells
// subscribers which app changed. While the connection is down the feed is not live: caches must not answer from
// memory then, and everything is dropped when it comes back (changes may have been missed).
// The same connection also listens on `svc_app_events` (schema migration 0024: '<app_id>:<seq>' per new or changed
// SDK/purchase event) for the dashboard's live events view; its subscribers hear '*' on every (re)connect too.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Logger } from './logger.js';

const APP_CHANGED_CHANNEL = 'svc_app_changed';
const APP_EVENTS_CHANNEL = 'svc_app_events';
const SYNC_PREFIX = '__sync:';

/** Called with the app id that changed, or '*' when every app may have (reconnect). */
export type AppChangeListener = (appId: string) => void;

export class AppChangeFeed {
  private client: pg.Client | undefined;
  private live = false;
  private closed = false;
  private readonly listeners = new Set<AppChangeListener>();
  private readonly eventListeners = new Set<AppChangeListener>();
  private readonly pendingSyncs = new Map<string, () => void>();

  constructor(
    private readonly databaseUrl: string,
    private readonly logger: Logger,
  ) {}

  isLive(): boolean {
    return this.live;
  }

  subscribe(listener: AppChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called with the app id of each new or changed event (the payload's part before ':'), or '*' on (re)connect. */
  subscribeEvents(listener: AppChangeListener): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.databaseUrl, application_name: 'svc-app-change-feed' });
    client.on('notification', (msg) => {
      if (msg.channel === APP_EVENTS_CHANNEL) this.emitEvent((msg.payload ?? '').split(':')[0]!);
      else this.onNotification(msg.payload ?? '');
    });
    client.on('error', (err) => this.logger.warn({ err }, 'app change feed connection error'));
    // Only the connection in use reports a disconnect: a start that failed is retried by its caller alone (else every
    // failed attempt would schedule two retries, and a database outage would multiply them without bound).
    client.on('end', () => {
      if (this.client === client) this.onDisconnect();
    });
    await client.connect();
    await client.query(`listen ${APP_CHANGED_CHANNEL}; listen ${APP_EVENTS_CHANNEL}`);
    this.client = client;
    this.emit('*');
    this.emitEvent('*');
    this.live = true;
  }

  /** Resolves once every change committed before this call has been delivered to the subscribers. */
  async sync(): Promise<void> {
    if (!this.client || !this.live) return;
    const token = randomUUID();
    const delivered = new Promise<void>((resolve) => this.pendingSyncs.set(token, resolve));
    await this.client.query('select pg_notify($1, $2)', [APP_CHANGED_CHANNEL, `${SYNC_PREFIX}${token}`]);
    await delivered;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.live = false;
    await this.client?.end().catch(() => undefined);
  }

  private onNotification(payload: string): void {
    if (payload.startsWith(SYNC_PREFIX)) {
      const token = payload.slice(SYNC_PREFIX.length);
      this.pendingSyncs.get(token)?.();
      this.pendingSyncs.delete(token);
      return;
    }
    this.emit(payload);
  }

  private emit(appId: string): void {
    for (const listener of this.listeners) listener(appId);
  }

  private emitEvent(appId: string): void {
    for (const listener of this.eventListeners) listener(appId);
  }

  /** Starts now if it can; otherwise keeps trying in the background (the API serves uncached meanwhile). */
  async startOrRetry(): Promise<void> {
    try {
      await this.start();
    } catch (err) {
      this.logger.warn({ err }, 'app change feed unavailable: serving without read caches until it connects');
      this.retry(250);
    }
  }

  private retry(delay: number): void {
    setTimeout(() => {
      if (this.closed) return;
      this.start().catch(() => this.retry(Math.min(delay * 2, 10_000)));
    }, delay).unref();
  }

  private onDisconnect(): void {
    this.live = false;
    this.client = undefined;
    this.emit('*');
    if (this.closed) return;
    this.logger.warn('app change feed disconnected; caches bypassed until it reconnects');
    this.retry(250);
  }
}
