// The App Store, through @apple/app-store-server-library:
// * signed transactions (JWS from StoreKit 2) verified with its SignedDataVerifier against the configured roots
//   (APPLE_ROOT_CERTS: Apple Root CA - G3 in production; tests configure the root of a chain they create), bundle
//   id and environment checked by the library. Xcode and LocalTesting transactions are not signed by the App Store:
//   the library decodes them without a signature check, so callers must never let them move money.
// * the credential green-check: its AppStoreServerAPIClient (the ES256 token is the library's) requests a test
//   notification, one real call. The client's base URL is private to the library, so its one protected
//   extension point (makeFetchRequest) is overridden to send the request to APPLE_API_ROOT when set (else Apple's
//   URL for the key's environment) with a timeout; nothing else is hand-written.
import { readFileSync } from 'node:fs';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import {
  APIException,
  AppStoreServerAPIClient,
  Environment,
  SignedDataVerifier,
  VerificationException,
  VerificationStatus,
  type JWSRenewalInfoDecodedPayload,
  type JWSTransactionDecodedPayload,
  type NotificationHistoryResponse,
  type ResponseBodyV2DecodedPayload,
} from '@apple/app-store-server-library';
import { claimedPayload } from '../lib/store-purchase.js';
import { retryable, type StoreApiConfig, type StoreCheckOutcome } from './store-check.js';

const APPLE_API = { PRODUCTION: 'https://api.storekit.apple.com', SANDBOX: 'https://api.storekit-sandbox.apple.com' } as const;

class ConfiguredAppStoreClient extends AppStoreServerAPIClient {
  constructor(
    private readonly root: string,
    private readonly timeoutMs: number,
    ...args: ConstructorParameters<typeof AppStoreServerAPIClient>
  ) {
    super(...args);
  }

  protected override makeFetchRequest(
    path: string,
    query: URLSearchParams,
    method: string,
    body: string | Buffer | undefined,
    headers: Record<string, string>,
  ) {
    const url = `${this.root.replace(/\/+$/, '')}${path}?${query.toString()}`;
    return fetch(url, {
      method,
      body: body as BodyInit | undefined,
      headers,
      signal: AbortSignal.timeout(this.timeoutMs),
    }) as unknown as ReturnType<AppStoreServerAPIClient['makeFetchRequest']>;
  }
}

/** The green-check of an uploaded App Store Connect key: one test-notification request. */
export async function checkAppleKey(
  config: StoreApiConfig,
  secret: string,
  meta: Record<string, string | null>,
  timeoutMs: number,
): Promise<StoreCheckOutcome> {
  try {
    if (createPrivateKey(secret).asymmetricKeyType !== 'ec') throw new Error('not an EC key');
  } catch {
    return { status: 'failed', error: 'The stored .p8 key is not a readable ES256 private key: upload it again' };
  }
  const production = meta.environment === 'PRODUCTION';
  const client = new ConfiguredAppStoreClient(
    config.APPLE_API_ROOT ?? (production ? APPLE_API.PRODUCTION : APPLE_API.SANDBOX),
    timeoutMs,
    secret,
    meta.key_id ?? '',
    meta.issuer_id ?? '',
    meta.bundle_id ?? '',
    production ? Environment.PRODUCTION : Environment.SANDBOX,
  );
  try {
    await client.requestTestNotification();
  } catch (err) {
    if (!(err instanceof APIException)) return retryable('Apple', err);
    const s = err.httpStatusCode;
    if (s === 401 || s === 403) return { status: 'failed', error: 'Apple refused the key: check key id, issuer id and bundle id' };
    if (s >= 500 || s === 429) return { status: 'retryable', error: `Apple answered ${s}; try again` };
    return { status: 'failed', error: `Apple answered ${s}${err.errorMessage ? `: ${err.errorMessage}` : ''}` };
  }
  return {
    status: 'ok',
    error: null,
    reason:
      `Apple accepted key ${meta.key_id} for ${meta.bundle_id} ` +
      `(${production ? 'production' : 'sandbox'}): a test notification was requested`,
  };
}

export type AppleHistoryPage =
  { ok: true; page: NotificationHistoryResponse } | { ok: false; status: 'rate_limited' | 'retryable' | 'failed'; error: string };

/**
 * One page of the app's Notification History (POST /inApps/v1/notifications/history) between two instants, through
 * the library (its token, its request and answer validation), sent to APPLE_API_ROOT when set. A 429 is told
 * apart: the caller backs off and asks for the same page again.
 */
export async function appleNotificationHistoryPage(
  config: StoreApiConfig,
  secret: string,
  meta: Record<string, string | null>,
  span: { startMs: number; endMs: number },
  paginationToken: string | undefined,
  timeoutMs: number,
): Promise<AppleHistoryPage> {
  const production = meta.environment === 'PRODUCTION';
  const client = new ConfiguredAppStoreClient(
    config.APPLE_API_ROOT ?? (production ? APPLE_API.PRODUCTION : APPLE_API.SANDBOX),
    timeoutMs,
    secret,
    meta.key_id ?? '',
    meta.issuer_id ?? '',
    meta.bundle_id ?? '',
    production ? Environment.PRODUCTION : Environment.SANDBOX,
  );
  try {
    return {
      ok: true,
      page: await client.getNotificationHistory(paginationToken ?? null, { startDate: span.startMs, endDate: span.endMs }),
    };
  } catch (err) {
    if (!(err instanceof APIException))
      return { ok: false, status: 'retryable', error: `Apple could not be reached (${err instanceof Error ? err.message : String(err)})` };
    const s = err.httpStatusCode;
    if (s === 429) return { ok: false, status: 'rate_limited', error: 'Apple answered 429 (rate limited)' };
    if (s >= 500) return { ok: false, status: 'retryable', error: `Apple answered ${s}` };
    return {
      ok: false,
      status: 'failed',
      error:
        s === 401 || s === 403
          ? 'Apple refused the key: check key id, issuer id and bundle id'
          : `Apple answered ${s}${err.errorMessage ? `: ${err.errorMessage}` : ''}`,
    };
  }
}

// ---- signed transactions ---------------------------------------------------------------------------------------

/** Reads APPLE_ROOT_CERTS (comma-separated paths, DER or PEM) as DER; throws naming a file that is no certificate. */
export function loadAppleRoots(paths: string): Buffer[] {
  return paths
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
    .map((file) => {
      try {
        return new X509Certificate(readFileSync(file)).raw;
      } catch (err) {
        throw new Error(`APPLE_ROOT_CERTS: ${file} is not a readable certificate (${err instanceof Error ? err.message : String(err)})`);
      }
    });
}

export type AppleVerification =
  { ok: true; transaction: JWSTransactionDecodedPayload; signatureChecked: boolean } | { ok: false; reason: string; retryable: boolean };

const REASONS: Partial<Record<VerificationStatus, string>> = {
  [VerificationStatus.VERIFICATION_FAILURE]: 'the signature or its certificate chain does not verify against the trusted Apple roots',
  [VerificationStatus.INVALID_APP_IDENTIFIER]: "the transaction belongs to another app (bundle id differs from the app's)",
  [VerificationStatus.INVALID_ENVIRONMENT]: 'the transaction is for another environment',
  [VerificationStatus.INVALID_CHAIN_LENGTH]: 'the x5c certificate chain is not three certificates',
  [VerificationStatus.INVALID_CERTIFICATE]: 'a certificate of the chain is invalid or expired',
  [VerificationStatus.FAILURE]: 'the payload is not a signed transaction',
};

export type AppleNotificationVerification =
  | {
      ok: true;
      notification: ResponseBodyV2DecodedPayload;
      transaction?: JWSTransactionDecodedPayload;
      renewalInfo?: JWSRenewalInfoDecodedPayload;
    }
  | { ok: false; reason: string; retryable: boolean; missing?: 'app_apple_id' };

const ENVIRONMENTS = new Set<string>(Object.values(Environment));

/**
 * Verifies signed transactions of many apps against one set of roots. The environment the payload claims picks the
 * verifier (a Production transaction is checked by a Production verifier, and so on); the signature covers that
 * claim. Verifiers are kept per environment, bundle id and Apple id.
 */
export class AppleTransactionVerifier {
  private readonly verifiers = new Map<string, SignedDataVerifier>();

  constructor(
    private readonly roots: Buffer[],
    private readonly onlineChecks = false,
  ) {}

  async verify(signedTransaction: string, bundleId: string, appAppleId: number | undefined): Promise<AppleVerification> {
    const claimed = claimedPayload(signedTransaction);
    const environment =
      typeof claimed?.environment === 'string' && ENVIRONMENTS.has(claimed.environment) ? (claimed.environment as Environment) : undefined;
    if (!environment)
      return { ok: false, reason: 'the signed transaction is not a JWS with a known App Store environment', retryable: false };
    try {
      const transaction = await this.verifierFor(environment, bundleId, appAppleId).verifyAndDecodeTransaction(signedTransaction);
      return { ok: true, transaction, signatureChecked: environment === Environment.PRODUCTION || environment === Environment.SANDBOX };
    } catch (err) {
      if (err instanceof VerificationException) {
        if (err.status === VerificationStatus.RETRYABLE_VERIFICATION_FAILURE)
          return { ok: false, reason: "Apple's certificate status service is unreachable", retryable: true };
        return { ok: false, reason: REASONS[err.status] ?? 'the signed transaction does not verify', retryable: false };
      }
      return { ok: false, reason: 'the signed transaction does not verify', retryable: false };
    }
  }

  /**
   * A signed notification (App Store Server Notifications V2): the outer payload, then its signed transaction and
   * renewal info, each verified by the verifier of the environment the payload claims (the library checks bundle id,
   * environment and, in production, the app's Apple id). Only Production and Sandbox: the library checks no
   * signature for Xcode and LocalTesting, and the App Store sends no notification from them. A production
   * notification needs the app's Apple id: without it the answer says so (`missing`), nothing is verified.
   */
  async verifyNotification(
    signedPayload: string,
    bundleId: string,
    appAppleId: number | undefined,
  ): Promise<AppleNotificationVerification> {
    const data = claimedPayload(signedPayload)?.data as { environment?: unknown } | undefined;
    const environment =
      data?.environment === Environment.PRODUCTION || data?.environment === Environment.SANDBOX ? data.environment : undefined;
    if (!environment)
      return { ok: false, reason: 'the signed payload is not a notification of the Production or Sandbox App Store', retryable: false };
    if (environment === Environment.PRODUCTION && appAppleId === undefined)
      return { ok: false, reason: "the app's Apple id (app_apple_id) is not configured", retryable: false, missing: 'app_apple_id' };
    const verifier = this.verifierFor(environment, bundleId, appAppleId);
    try {
      const notification = await verifier.verifyAndDecodeNotification(signedPayload);
      const inner = notification.data;
      const transaction = inner?.signedTransactionInfo ? await verifier.verifyAndDecodeTransaction(inner.signedTransactionInfo) : undefined;
      const renewalInfo = inner?.signedRenewalInfo ? await verifier.verifyAndDecodeRenewalInfo(inner.signedRenewalInfo) : undefined;
      return { ok: true, notification, transaction, renewalInfo };
    } catch (err) {
      if (err instanceof VerificationException) {
        if (err.status === VerificationStatus.RETRYABLE_VERIFICATION_FAILURE)
          return { ok: false, reason: "Apple's certificate status service is unreachable", retryable: true };
        return {
          ok: false,
          reason: (REASONS[err.status] ?? 'the signed payload does not verify').replace('the transaction', 'the notification'),
          retryable: false,
        };
      }
      return { ok: false, reason: 'the signed payload does not verify', retryable: false };
    }
  }

  private verifierFor(environment: Environment, bundleId: string, appAppleId: number | undefined): SignedDataVerifier {
    const key = `${environment}\n${bundleId}\n${appAppleId ?? ''}`;
    let verifier = this.verifiers.get(key);
    if (!verifier) {
      // The library wants the app's Apple id for a Production verifier but reads it only on notifications and app
      // transactions, never on a transaction (checked by bundle id): 0 stands in when the app's id is not known.
      verifier = new SignedDataVerifier(
        this.roots,
        this.onlineChecks,
        environment,
        bundleId,
        environment === Environment.PRODUCTION ? (appAppleId ?? 0) : appAppleId,
      );
      if (this.verifiers.size > 1000) this.verifiers.clear();
      this.verifiers.set(key, verifier);
    }
    return verifier;
  }
}

let shared: { key: string; verifier: AppleTransactionVerifier } | undefined;

/** One verifier per process for the configured roots (rebuilt when the configuration changes); undefined without roots. */
export function sharedAppleVerifier(config: {
  APPLE_ROOT_CERTS?: string;
  APPLE_JWS_ONLINE_CHECKS?: boolean;
}): AppleTransactionVerifier | undefined {
  const roots = config.APPLE_ROOT_CERTS;
  if (!roots) return undefined;
  const key = `${roots}\n${config.APPLE_JWS_ONLINE_CHECKS ? 1 : 0}`;
  if (shared?.key !== key) shared = { key, verifier: new AppleTransactionVerifier(loadAppleRoots(roots), config.APPLE_JWS_ONLINE_CHECKS) };
  return shared.verifier;
}
