// What every handler can reach: the dependencies built once per process, and the per-request state the
// middleware fills in. Handlers import these types only.
import type { Client } from '@temporalio/client';
import type { Knex } from 'knex';
import type Koa from 'koa';
import type { Config } from '../runtime/config.js';
import type { Principal } from '../lib/principal.js';
import type { ChangeFeed } from '../runtime/app-scoped-cache.js';
import type { SecretBox } from '../lib/secret-box.js';
import type { Logger } from '../runtime/logger.js';
import type { ApiCaches } from './sdk-caches.js';
import type { Clock, RateCounter } from '../runtime/rate-counter.js';
import type { Redis } from 'ioredis';

export interface ApiDeps {
  config: Config;
  db: Knex;
  temporal: Client;
  logger: Logger;
  /** Push invalidation for the read caches; without it nothing is cached. */
  appChanges?: ChangeFeed;
  /** Shared rate-limit state across API processes (REDIS_URL); without it each process counts its own. */
  redis?: Redis;
  /** The rate limits' clock (runtime/rate-counter.ts): Date.now, unless a test holds it still through a burst. */
  rateLimitClock?: Clock;
  /** Only `svc dev` sets it (cli/dev.ts; no variable can): the dev mailbox page exists (api/dashboard/dev-mailbox.tsx). */
  devMode?: boolean;
}

export interface RequestState {
  requestId: string;
  /** Use requestLog(ctx): created on first use. */
  log?: Logger;
  principal?: Principal;
  credentialPresented?: boolean;
  /** A multipart upload whose route checks the CSRF field after parsing (api/auth/csrf.ts). */
  csrfDeferred?: boolean;
  /** The text fields of a multipart upload as read so far (api/middleware/multipart.ts), for a refused form's page. */
  uploadFields?: Record<string, string>;
  body?: unknown;
  rawBody?: Buffer;
  /** Set (instead of answering 400) on routes that authenticate before reading the body. */
  bodyInvalid?: boolean;
  /** The validated body or query (api/middleware/validate.ts). */
  input?: unknown;
  clientIp: string;
  /**
   * The request carried X-Forwarded-For while TRUST_PROXY is off: `clientIp` is then a proxy's address, not the
   * client's (recorded with an install, so the fraud signals say they cannot read it: docs/fraud-signals.md).
   */
  viaUntrustedProxy: boolean;
  /** Set by the tool server (api/mcp) when the caller asked for progress: long handlers report what they started. */
  progress?: ProgressListener;
}

export type ProgressListener = (update: { message: string; workflowId?: string }) => void;

export type AppContext = Koa.ParameterizedContext<RequestState> & {
  deps: ApiDeps;
  caches: ApiCaches;
  secretBox: SecretBox | undefined;
  rateCounter: RateCounter;
};
export type Middleware = (ctx: AppContext, next: Koa.Next) => Promise<void>;
