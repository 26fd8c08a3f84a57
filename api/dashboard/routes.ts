// The dashboard pages behind the agent's signed links (lib/signed-links.ts): GET /dashboard/links/{purpose} checks
// signature, purpose, expiry and single use before showing anything; a bad link gets a clear refusal page (401
// tampered or wrong purpose, 410 expired or used). The full pages come with the dashboard work; this one is minimal.
// The credential-upload URL also takes POST with JSON (CONTRACT.md "Store credential upload"; a third kind,
// `{"platform": "subprovider", "secret_api_key": "sk_..."}`, holds the subscription provider's key for the webhook
// autowire): the credential is stored encrypted (store_credentials, AES-256-GCM) and the link is spent; the answer
// never echoes the secret.
import { Router } from '@koa/router';
import { createPrivateKey } from 'node:crypto';
import { spendSignedLink } from '../../db/signed-links.js';
import { findApp, mergeAppleMeta, type AppleMetaPatch } from '../../db/apps.js';
import { saveCredential } from '../../db/store-credentials.js';
import type { CredentialPlatform } from '../../schema/types.js';
import { AppError, BadRequestError, UnavailableError, ValidationError, type FieldProblem } from '../../lib/errors.js';
import { escapeHtml } from '../../lib/html.js';
import type { LinkPurpose } from '../../lib/signed-links.js';
import type { AppContext, RequestState } from '../context.js';
import { NOT_JSON } from '../middleware/json-body.js';
import { sendPage } from '../send-page.js';
import { checkLink, refuse } from './link-check.js';

const TITLES: Record<LinkPurpose, string> = {
  'wallet-topup': 'Top up your wallet',
  'credential-upload': 'Upload store credentials',
  'asset-upload': 'Upload marketing assets',
};

async function showLinkPage(ctx: AppContext): Promise<void> {
  const checked = await checkLink(ctx);
  if (!checked.ok) return refuse(ctx, checked.status, checked.message);
  const { purpose, org, app, exp, extra } = checked.claims;
  const lines = [`<h1>${escapeHtml(TITLES[purpose])}</h1>`, `<p class="muted">Organization ${escapeHtml(org)}${app ? `, app ${escapeHtml(app)}` : ''}</p>`];
  if (extra?.amount_usd) lines.push(`<p>Suggested amount: $${escapeHtml(extra.amount_usd)}</p>`);
  if (extra?.platform) lines.push(`<p>Platform: ${escapeHtml(extra.platform)}</p>`);
  if (extra?.platform === 'subprovider') lines.push("<p>Paste the subscription provider's secret API key (sk_..., API v2, with write access to the project's integrations). The service uses it to wire its webhook; it is stored encrypted and never shown again.</p>");
  lines.push(`<p>This link is valid until ${escapeHtml(new Date(exp * 1000).toISOString())} and works once.</p>`);
  sendPage(ctx, 200, { title: TITLES[purpose], lang: 'en', body: lines.join('\n') });
}

// ---- credential upload -----------------------------------------------------------------------------------------

const bad = (field: string, msg: string): FieldProblem => ({ loc: ['body', field], msg, type: 'value_error' });
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

interface Parsed { platform: CredentialPlatform; secret: string; meta: Record<string, string | null>; appleMeta?: AppleMetaPatch }

const PARSERS: Record<CredentialPlatform, (b: Record<string, unknown>) => Parsed> = {
  ios: (b) => parseIos(b), android: (b) => parseAndroid(b), subprovider: (b) => parseSubprovider(b),
};
const isCredentialPlatform = (v: unknown): v is CredentialPlatform => typeof v === 'string' && Object.hasOwn(PARSERS, v);

function parseIos(b: Record<string, unknown>): Parsed {
  const problems: FieldProblem[] = [];
  const keyId = str(b.key_id);
  const issuerId = str(b.issuer_id);
  const privateKey = str(b.private_key);
  const bundleId = str(b.bundle_id);
  const environment = str(b.environment)?.toLowerCase();
  if (!keyId || !/^[A-Z0-9]{10}$/.test(keyId)) problems.push(bad('key_id', 'The 10-character key id from App Store Connect'));
  if (!issuerId || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(issuerId)) problems.push(bad('issuer_id', 'The issuer id (a UUID) from App Store Connect'));
  if (!bundleId || !/^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/.test(bundleId)) problems.push(bad('bundle_id', 'A bundle id such as com.example.app'));
  if (environment !== 'sandbox' && environment !== 'production') problems.push(bad('environment', "Either 'sandbox' or 'production'"));
  const appleId = b.app_apple_id;
  if (appleId !== undefined && !((typeof appleId === 'string' || typeof appleId === 'number') && /^\d{1,20}$/.test(String(appleId)))) problems.push(bad('app_apple_id', 'The numeric Apple id of the app'));
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
    platform: 'ios', secret: privateKey!,
    meta: { key_id: keyId!, issuer_id: issuerId!, bundle_id: bundleId!, environment: environment!.toUpperCase() },
    // The app's non-secret Apple settings follow the uploaded key (store-direct verification reads them).
    appleMeta: { bundle_id: bundleId!, key_id: keyId!, issuer_id: issuerId!, ...(typeof appleId === 'string' || typeof appleId === 'number' ? { app_apple_id: String(appleId) } : {}) },
  };
}

function parseAndroid(b: Record<string, unknown>): Parsed {
  const problems: FieldProblem[] = [];
  const packageName = str(b.package_name);
  if (!packageName || !/^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/.test(packageName)) problems.push(bad('package_name', 'A package name such as com.example.app'));
  let account: Record<string, unknown> | undefined;
  const raw = b.service_account_json;
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) account = raw as Record<string, unknown>;
  else if (typeof raw === 'string') {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) account = parsed as Record<string, unknown>;
    } catch { /* reported below */ }
  }
  if (!account || account.type !== 'service_account' || !str(account.client_email) || !str(account.private_key)) {
    problems.push(bad('service_account_json', 'The service account JSON key (type service_account, client_email, private_key)'));
  }
  if (problems.length > 0) throw new ValidationError(problems);
  return { platform: 'android', secret: JSON.stringify(account), meta: { package_name: packageName! } };
}

/** The subscription provider's secret REST key (`sk_...`; the public SDK keys have other prefixes). No live check here:
 * svc_setup_subprovider uses it and reports a refused key. */
function parseSubprovider(b: Record<string, unknown>): Parsed {
  const key = str(b.secret_api_key);
  if (!key || !/^sk_[A-Za-z0-9_-]{8,200}$/.test(key)) {
    const publicKey = key !== undefined && /^(appl|goog|amzn|strp|rcb|test)_/.test(key);
    throw new ValidationError([bad('secret_api_key', publicKey
      ? 'That is a public SDK key: paste the secret API key (sk_...) from the project\'s API keys page'
      : "The subscription provider's secret API key: sk_ followed by 8 to 200 letters, digits, _ or -")]);
  }
  return { platform: 'subprovider', secret: key, meta: {} };
}

async function uploadCredential(ctx: AppContext): Promise<void> {
  if (ctx.params.purpose !== 'credential-upload') throw new AppError(405, 'Only the credential-upload link takes POST.');
  const checked = await checkLink(ctx);
  if (!checked.ok) throw new AppError(checked.status, checked.message);
  const { claims } = checked;
  const box = ctx.secretBox;
  if (!box) throw new UnavailableError('Credential storage needs SVC_MASTER_KEY to be configured.');
  if (ctx.state.bodyInvalid) throw new BadRequestError(NOT_JSON);
  const body = ctx.state.body;
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new BadRequestError('Send a JSON object.');
  const b = body as Record<string, unknown>;
  if (!isCredentialPlatform(b.platform)) throw new ValidationError([bad('platform', "One of 'ios', 'android', 'subprovider'")]);
  if (claims.extra?.platform && claims.extra.platform !== b.platform) {
    throw new ValidationError([bad('platform', `This link is for ${claims.extra.platform} credentials`)]);
  }
  const parsed = PARSERS[b.platform](b);
  const app = claims.app ? await findApp(ctx.deps.db, claims.app) : undefined;
  if (!app || app.org_id !== claims.org) throw new AppError(410, 'The app of this link no longer exists.');
  const stored = await ctx.deps.db.transaction(async (trx) => {
    const expiresAt = new Date(claims.exp * 1000);
    if (!(await spendSignedLink(trx, { nonce: claims.nonce, purpose: claims.purpose, orgId: claims.org, expiresAt }))) return false;
    await saveCredential(trx, box, app.id, parsed.platform, parsed.secret, parsed.meta);
    if (parsed.appleMeta) await mergeAppleMeta(trx, app.id, parsed.appleMeta);
    return true;
  });
  if (!stored) throw new AppError(410, 'This link has already been used. Links work once: ask for a new one.');
  ctx.body = { stored: true, app_id: app.id, platform: parsed.platform, ...(parsed.platform === 'ios' ? { key_id: parsed.meta.key_id } : {}) };
}

export function dashboardLinkRoutes(): Router<RequestState, AppContext> {
  const router = new Router<RequestState, AppContext>();
  router.get('/dashboard/links/:purpose', showLinkPage);
  router.post('/dashboard/links/:purpose', uploadCredential);
  return router;
}
