// What a credential upload must contain, per kind (CONTRACT.md "Store credential upload"): iOS the App Store Connect
// .p8 key with its key id, issuer id, bundle id and environment; Android the service-account JSON and package name;
// the subscription provider's secret REST key. Pure checks: a bad field is a 422 naming it (never echoing a
// secret). Both the signed link's JSON POST and the dashboard's upload form (multipart) use these.
import { createPrivateKey } from 'node:crypto';
import type { CredentialPlatform } from '../schema/types.js';
import { ValidationError, type FieldProblem } from '../errors/http-errors.js';

/** The app's non-secret Apple settings that follow an uploaded iOS key (db/apps.ts mergeAppleMeta takes them). */
export interface AppleMetaFields {
  issuer_id?: string;
  key_id?: string;
  environment?: string;
  app_apple_id?: string;
  bundle_id?: string;
}

export const bad = (field: string, msg: string): FieldProblem => ({ loc: ['body', field], msg, type: 'value_error' });
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

export interface ParsedCredential {
  platform: CredentialPlatform;
  secret: string;
  meta: Record<string, string | null>;
  appleMeta?: AppleMetaFields;
}

export const CREDENTIAL_PARSERS: Record<CredentialPlatform, (b: Record<string, unknown>) => ParsedCredential> = {
  ios: (b) => parseIos(b),
  android: (b) => parseAndroid(b),
  subprovider: (b) => parseSubprovider(b),
};
export const isCredentialPlatform = (v: unknown): v is CredentialPlatform => typeof v === 'string' && Object.hasOwn(CREDENTIAL_PARSERS, v);

function parseIos(b: Record<string, unknown>): ParsedCredential {
  const problems: FieldProblem[] = [];
  const keyId = str(b.key_id);
  const issuerId = str(b.issuer_id);
  const privateKey = str(b.private_key);
  const bundleId = str(b.bundle_id);
  const environment = str(b.environment)?.toLowerCase();
  if (!keyId || !/^[A-Z0-9]{10}$/.test(keyId)) problems.push(bad('key_id', 'The 10-character key id from App Store Connect'));
  if (!issuerId || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(issuerId))
    problems.push(bad('issuer_id', 'The issuer id (a UUID) from App Store Connect'));
  if (!bundleId || !/^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/.test(bundleId))
    problems.push(bad('bundle_id', 'A bundle id such as com.example.app'));
  if (environment !== 'sandbox' && environment !== 'production') problems.push(bad('environment', "Either 'sandbox' or 'production'"));
  const appleId = b.app_apple_id;
  if (appleId !== undefined && !((typeof appleId === 'string' || typeof appleId === 'number') && /^\d{1,20}$/.test(String(appleId))))
    problems.push(bad('app_apple_id', 'The numeric Apple id of the app'));
  // Apple's verifier checks a production notification's app id (CONTRACT.md "Store notifications").
  else if (environment === 'production' && appleId === undefined)
    problems.push(
      bad(
        'app_apple_id',
        'Required for production: the numeric Apple id of the app (App Store ' +
          'Connect, App Information), which production server notifications are checked against',
      ),
    );
  if (!privateKey || !privateKey.includes('-----BEGIN PRIVATE KEY-----')) {
    problems.push(bad('private_key', 'The .p8 key as PEM text (-----BEGIN PRIVATE KEY----- ...)'));
  } else {
    try {
      const key = createPrivateKey(privateKey);
      if (key.asymmetricKeyType !== 'ec') problems.push(bad('private_key', 'An App Store Connect key is an EC (P-256) key'));
    } catch {
      problems.push(bad('private_key', 'Not a readable PEM private key'));
    }
  }
  if (problems.length > 0) throw new ValidationError(problems);
  return {
    platform: 'ios',
    secret: privateKey!,
    meta: { key_id: keyId!, issuer_id: issuerId!, bundle_id: bundleId!, environment: environment!.toUpperCase() },
    // The app's non-secret Apple settings follow the uploaded key (store-direct verification reads them).
    appleMeta: {
      bundle_id: bundleId!,
      key_id: keyId!,
      issuer_id: issuerId!,
      ...(typeof appleId === 'string' || typeof appleId === 'number' ? { app_apple_id: String(appleId) } : {}),
    },
  };
}

/** An email address, as Google writes service accounts' (lowercase after trimming; at most 254 characters). */
const SERVICE_ACCOUNT_EMAIL = /^(?=.{3,254}$)[a-z0-9._%+-]+@[a-z0-9-]+(\.[a-z0-9-]+)+$/;

function parseAndroid(b: Record<string, unknown>): ParsedCredential {
  const problems: FieldProblem[] = [];
  const packageName = str(b.package_name);
  if (!packageName || !/^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/.test(packageName))
    problems.push(bad('package_name', 'A package name such as com.example.app'));
  let account: Record<string, unknown> | undefined;
  const raw = b.service_account_json;
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) account = raw as Record<string, unknown>;
  else if (typeof raw === 'string') {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) account = parsed as Record<string, unknown>;
    } catch {
      /* reported below */
    }
  }
  if (!account || account.type !== 'service_account' || !str(account.client_email) || !str(account.private_key)) {
    problems.push(bad('service_account_json', 'The service account JSON key (type service_account, client_email, private_key)'));
  }
  // Optional until notifications are wanted; omitted, a re-upload keeps the account stored before.
  const rawPush = b.pubsub_service_account;
  const pushAccount =
    rawPush === undefined || rawPush === null || rawPush === ''
      ? undefined
      : typeof rawPush === 'string'
        ? rawPush.trim().toLowerCase()
        : null;
  if (pushAccount === null || (pushAccount !== undefined && !SERVICE_ACCOUNT_EMAIL.test(pushAccount))) {
    problems.push(
      bad(
        'pubsub_service_account',
        'The email of the service account your Pub/Sub push subscription authenticates as (name@project.iam.gserviceaccount.com)',
      ),
    );
  }
  if (problems.length > 0) throw new ValidationError(problems);
  return {
    platform: 'android',
    secret: JSON.stringify(account),
    meta: { package_name: packageName!, ...(pushAccount ? { pubsub_service_account: pushAccount } : {}) },
  };
}

/** The subscription provider's secret REST key (`sk_...`; the public SDK keys have other prefixes). No live check here:
 * svc_setup_subprovider uses it and reports a refused key. */
function parseSubprovider(b: Record<string, unknown>): ParsedCredential {
  const key = str(b.secret_api_key);
  if (!key || !/^sk_[A-Za-z0-9_-]{8,200}$/.test(key)) {
    const publicKey = key !== undefined && /^(appl|goog|amzn|strp|rcb|test)_/.test(key);
    throw new ValidationError([
      bad(
        'secret_api_key',
        publicKey
          ? "That is a public SDK key: paste the secret API key (sk_...) from the project's API keys page"
          : "The subscription provider's secret API key: sk_ followed by 8 to 200 letters, digits, _ or -",
      ),
    ]);
  }
  return { platform: 'subprovider', secret: key, meta: {} };
}
