// Google Play, through @googleapis/androidpublisher (v3, pinned at 42.0.0) with a service-account token from
// google-auth-library (pinned at 11.3.4, the one googleapis-common uses too). The API root is the client's own
// `rootUrl` option (GOOGLE_PLAY_API_ROOT). google-auth-library has no option for the token endpoint (its URL is a
// constant of its token fetcher), so the one hand-written part is a request interceptor on the auth client's own
// transport that sends requests for Google's token URL to GOOGLE_TOKEN_URL; the assertion (RS256 JWT, audience
// Google's token URL, as Google requires) is still the library's. Every call has a timeout and no hidden retries:
// the caller's retry policy (Temporal's) is the only one.
import { androidpublisher_v3 } from '@googleapis/androidpublisher';
import { gaxios, JWT } from 'google-auth-library';
import { createHash } from 'node:crypto';
import { retryable, type StoreApiConfig, type StoreCheckOutcome } from './store-check.js';

const SCOPE = 'https://www.googleapis.com/auth/androidpublisher';
const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';

export type SubscriptionPurchaseV2 = androidpublisher_v3.Schema$SubscriptionPurchaseV2;
export type ProductPurchase = androidpublisher_v3.Schema$ProductPurchase;
/** Google's VoidedPurchase; `refundType` (newer than this pinned client's types) is read when present. */
export type VoidedPurchase = androidpublisher_v3.Schema$VoidedPurchase & { refundType?: number | null };

/** How a failed Google call reads: the purchase does not exist, our access is refused, or Google is away. */
export class GooglePlayError extends Error {
  constructor(
    readonly kind: 'not_found' | 'access' | 'unavailable' | 'credential',
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'GooglePlayError';
  }
}

interface ServiceAccount {
  client_email: string;
  private_key: string;
}

function parseServiceAccount(secret: string): ServiceAccount {
  const account = JSON.parse(secret) as Partial<ServiceAccount>;
  if (typeof account.client_email !== 'string' || typeof account.private_key !== 'string') throw new Error('incomplete service account');
  return { client_email: account.client_email, private_key: account.private_key };
}

function authClient(account: ServiceAccount, tokenUrl: string): JWT {
  const transporter = new gaxios.Gaxios();
  if (tokenUrl !== GOOGLE_TOKEN_URL) {
    transporter.interceptors.request.add({
      resolved: async (options) => {
        if (String(options.url) === GOOGLE_TOKEN_URL) options.url = new URL(tokenUrl);
        return options;
      },
    });
  }
  return new JWT({ email: account.client_email, key: account.private_key, scopes: [SCOPE], transporter });
}

/** One service account's androidpublisher client; tokens are fetched once and reused until they expire. */
export class GooglePlayClient {
  private readonly api: androidpublisher_v3.Androidpublisher;
  private readonly tokenUrl: string;

  constructor(
    config: StoreApiConfig,
    secret: string,
    private readonly timeoutMs = 10_000,
  ) {
    const account = parseServiceAccount(secret);
    this.tokenUrl = config.GOOGLE_TOKEN_URL;
    const auth = authClient(account, config.GOOGLE_TOKEN_URL);
    this.api = new androidpublisher_v3.Androidpublisher({ auth, rootUrl: config.GOOGLE_PLAY_API_ROOT });
  }

  private get options() {
    return { retry: false, timeout: this.timeoutMs };
  }

  /** The green-check's call: the app's reviews (any answer proves the account may act for the package). */
  async listReviews(packageName: string): Promise<void> {
    await this.call(() => this.api.reviews.list({ packageName, maxResults: 1 }, this.options));
  }

  async getSubscription(packageName: string, token: string): Promise<SubscriptionPurchaseV2> {
    return (await this.call(() => this.api.purchases.subscriptionsv2.get({ packageName, token }, this.options))).data;
  }

  async getProduct(packageName: string, productId: string, token: string): Promise<ProductPurchase> {
    return (await this.call(() => this.api.purchases.products.get({ packageName, productId, token }, this.options))).data;
  }

  /**
   * One page of voided purchases (type 1: one-time products and subscriptions, each keyed by its order id) voided in
   * [startMs, endMs] as Google's systems saw them; `token` continues a listing (Google then ignores the times).
   */
  async listVoidedPurchases(
    packageName: string,
    page: { startMs: number; endMs: number; token?: string; maxResults?: number },
  ): Promise<{ entries: VoidedPurchase[]; nextPageToken: string | null }> {
    const res = await this.call(() =>
      this.api.purchases.voidedpurchases.list(
        {
          packageName,
          type: 1,
          startTime: String(page.startMs),
          endTime: String(page.endMs),
          maxResults: page.maxResults ?? 1000,
          ...(page.token ? { token: page.token } : {}),
        },
        this.options,
      ),
    );
    return { entries: res.data.voidedPurchases ?? [], nextPageToken: res.data.tokenPagination?.nextPageToken ?? null };
  }

  /** Every voided purchase of the window, page after page (bounded: a runaway listing stops at `maxPages`). */
  async voidedPurchasesIn(
    packageName: string,
    window: { startMs: number; endMs: number },
    opts: { maxPages?: number; pageSize?: number } = {},
  ): Promise<VoidedPurchase[]> {
    const maxPages = opts.maxPages ?? 50;
    const all: VoidedPurchase[] = [];
    let token: string | undefined;
    for (let page = 0; page < maxPages; page += 1) {
      const { entries, nextPageToken } = await this.listVoidedPurchases(packageName, {
        ...window,
        maxResults: opts.pageSize,
        ...(token ? { token } : {}),
      });
      all.push(...entries);
      if (!nextPageToken) return all;
      token = nextPageToken;
    }
    throw new GooglePlayError(
      'unavailable',
      `Google Play listed more than ${maxPages} pages of voided purchases; the poll will continue from the same start`,
    );
  }

  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw this.classify(err);
    }
  }

  private classify(err: unknown): GooglePlayError {
    const e = err as { status?: number; response?: { status?: number }; config?: { url?: string | URL }; message?: string };
    const status = e?.status ?? e?.response?.status;
    const url = e?.config?.url;
    const fromTokenEndpoint = (typeof url === 'string' ? url : (url?.href ?? '')).startsWith(this.tokenUrl);
    if (status === undefined) return new GooglePlayError('unavailable', retryable('Google Play', err).error!);
    if (status >= 500 || status === 429)
      return new GooglePlayError('unavailable', `Google${fromTokenEndpoint ? "'s token endpoint" : ' Play'} answered ${status}; try again`);
    if (fromTokenEndpoint)
      return new GooglePlayError('credential', 'Google refused the service account: check the JSON key and that it is not revoked');
    if (status === 401 || status === 403)
      return new GooglePlayError(
        'access',
        `Google Play refused access (${status}): grant the service account access to the app in Play Console and check the package name`,
      );
    return new GooglePlayError('not_found', `Google Play does not know this purchase (${status})`, status);
  }
}

/** The green-check of an uploaded service account: a token, then one androidpublisher call for the package. */
export async function checkGoogleServiceAccount(
  config: StoreApiConfig,
  secret: string,
  meta: Record<string, string | null>,
  timeoutMs: number,
): Promise<StoreCheckOutcome> {
  let client: GooglePlayClient;
  try {
    client = new GooglePlayClient(config, secret, timeoutMs);
  } catch {
    return { status: 'failed', error: 'The stored service account key is not readable: upload the JSON key again' };
  }
  try {
    await client.listReviews(meta.package_name ?? '');
  } catch (err) {
    if (!(err instanceof GooglePlayError)) return retryable('Google Play', err);
    if (err.kind === 'unavailable') return { status: 'retryable', error: err.message };
    if (err.kind === 'not_found')
      return {
        status: 'failed',
        error:
          `Google Play refused access (${err.status}): grant the service ` +
          `account access to the app in Play Console and check the package name`,
      };
    return { status: 'failed', error: err.message };
  }
  return { status: 'ok', error: null, reason: `Google Play accepted the service account for ${meta.package_name}: its reviews were read` };
}

/** Clients per service account (by digest of the key), so a token serves many verifications. */
const clients = new Map<string, GooglePlayClient>();

export function googlePlayClientFor(config: StoreApiConfig, secret: string, timeoutMs = 10_000): GooglePlayClient {
  const key = createHash('sha256').update(`${config.GOOGLE_PLAY_API_ROOT}\n${config.GOOGLE_TOKEN_URL}\n${secret}`).digest('hex');
  let client = clients.get(key);
  if (!client) {
    client = new GooglePlayClient(config, secret, timeoutMs);
    if (clients.size > 1000) clients.clear();
    clients.set(key, client);
  }
  return client;
}
