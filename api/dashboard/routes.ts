// The dashboard pages behind the agent's signed links (lib/signed-links.ts): GET /dashboard/links/{purpose} checks
// signature, purpose, expiry and single use before showing anything; a bad link gets a clear refusal page (401
// tampered or wrong purpose, 410 expired or used). The full pages come with the dashboard work; this one is minimal.
// The credential-upload URL also takes POST with JSON (CONTRACT.md "Store credential upload"): the credential is
// stored encrypted (store_credentials, AES-256-GCM) and the link is spent; the answer never echoes the secret.
import { Router } from '@koa/router';
import { createPrivateKey } from 'node:crypto';
import { isSignedLinkUsed, spendSignedLink } from '../../db/signed-links.js';
import { findApp, mergeAppleMeta, type AppleMetaPatch } from '../../db/apps.js';
import { saveCredential } from '../../db/store-credentials.js';
import { AppError, BadRequestError, UnavailableError, ValidationError, type FieldProblem } from '../../lib/errors.js';
import { escapeHtml } from '../../lib/html.js';
import { verifySignedLink, type LinkClaims, type LinkPurpose } from '../../lib/signed-links.js';
import type { AppContext, RequestState } from '../context.js';
import { NOT_JSON } from '../middleware/json-body.js';
import { sendPage } from '../send-page.js';

const TITLES: Record<LinkPurpose, string> = {
  'wallet-topup': 'Top up your wallet',
  'credential-upload': 'Upload store credentials',
  'asset-upload': 'Upload marketing assets',
};

type Checked = { ok: true; claims: LinkClaims } | { ok: false; status: 401 | 410 | 503; message: string };

async function checkLink(ctx: AppContext): Promise<Checked> {
  const masterKey = ctx.deps.config.SVC_MASTER_KEY;
  if (!masterKey) return { ok: false, status: 503, message: 'Signed links are not configured on this server.' };
  const result = verifySignedLink(masterKey, ctx.params.purpose as string, ctx.query);
  if (!result.ok) {
    if (result.reason === 'expired') return { ok: false, status: 410, message: 'This link has expired. Links are valid for 15 minutes: ask for a new one.' };
    if (result.reason === 'wrong_purpose') return { ok: false, status: 401, message: 'This link was issued for a different page and cannot be used here.' };
    return { ok: false, status: 401, message: 'This link is invalid: it was altered or is incomplete. Ask for a new one.' };
  }
  if (await isSignedLinkUsed(ctx.deps.db, result.claims.nonce)) {
    return { ok: false, status: 410, message: 'This link has already been used. Links work once: ask for a new one.' };
  }
  return result;
}

function refuse(ctx: AppContext, status: number, message: string): void {
  sendPage(ctx, status, {
    title: 'Link refused', lang: 'en',
    body: `<h1>This link cannot be used</h1>\n<p class="error">${escapeHtml(message)}</p>`,
  });
}

async function showLinkPage(ctx: AppContext): Promise<void> {
  const checked = await checkLink(ctx);
  if (!checked.ok) return refuse(ctx, checked.status, checked.message);
  const { purpose, org, app, exp, extra } = checked.claims;
  const lines = [`<h1>${escapeHtml(TITLES[purpose])}</h1>`, `<p class="muted">Organization ${escapeHtml(org)}${app ? `, app ${escapeHtml(app)}` : ''}</p>`];
  if (extra?.amount_usd) lines.push(`<p>Suggested amount: $${escapeHtml(extra.amount_usd)}</p>`);
  if (extra?.platform) lines.push(`<p>Platform: ${escapeHtml(extra.platform)}</p>`);
  lines.push(`<p>This link is valid until ${escapeHtml(new Date(exp * 1000).toISOString())} and works once.</p>`);
  sendPage(ctx, 200, { title: TITLES[purpose], lang: 'en', body: lines.join('\n') });
}

// ---- credential upload -----------------------------------------------------------------------------------------

const bad = (field: string, msg: string): FieldProblem => ({ loc: ['body', field], msg, type: 'value_error' });
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

interface Parsed { platform: 'ios' | 'android'; secret: string; meta: Record<string, string | null>; appleMeta?: AppleMetaPatch }

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
  if (b.platform !== 'ios' && b.platform !== 'android') throw new ValidationError([bad('platform', "Either 'ios' or 'android'")]);
  if (claims.extra?.platform && claims.extra.platform !== b.platform) {
    throw new ValidationError([bad('platform', `This link is for ${claims.extra.platform} credentials`)]);
  }
  const parsed = b.platform === 'ios' ? parseIos(b) : parseAndroid(b);
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
