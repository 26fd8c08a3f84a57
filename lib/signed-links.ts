// Signed dashboard links (spec "Agent REST API": top-up, credential upload, asset upload): short-lived (15 minutes),
// single-purpose URLs a human opens, so no secret and no money ever passes through the agent. The link is
//   {DASHBOARD_URL}/links/{purpose}?org=..&app=..&exp=<unix seconds>&nonce=..&sig=<hex HMAC-SHA256>
// signed with a key derived from SVC_MASTER_KEY by HKDF under a fixed label, so the signing key is never the
// encryption key of lib/secret-box.ts. Verification compares in constant time; single use is the caller's job
// (the nonce goes into signed_link_uses when the link is spent).
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

const LINK_PURPOSES = ['wallet-topup', 'credential-upload', 'asset-upload'] as const;
export type LinkPurpose = (typeof LINK_PURPOSES)[number];
export const LINK_TTL_SECONDS = 15 * 60;

function isLinkPurpose(value: string): value is LinkPurpose {
  return (LINK_PURPOSES as readonly string[]).includes(value);
}

export interface LinkClaims {
  purpose: LinkPurpose;
  org: string;
  /** Absent for organization-wide links (wallet top-up). */
  app?: string;
  /** Unix seconds. */
  exp: number;
  nonce: string;
  /** Non-secret hints for the page (e.g. `amount_usd`); signed like the rest. */
  extra?: Record<string, string>;
}

function masterKeyBytes(masterKey: string): Buffer {
  return /^[0-9a-f]{64}$/i.test(masterKey) ? Buffer.from(masterKey, 'hex') : Buffer.from(masterKey, 'base64');
}

function linkSigningKey(masterKey: string): Buffer {
  return Buffer.from(hkdfSync('sha256', masterKeyBytes(masterKey), Buffer.alloc(0), 'svc signed dashboard links v1', 32));
}

/** The exact bytes signed: purpose, then every parameter except `sig`, sorted, form-encoded. */
function canonical(purpose: string, params: Record<string, string>): string {
  const keys = Object.keys(params)
    .filter((k) => k !== 'sig')
    .sort();
  return `${purpose}\n${keys.map((k) => `${encodeURIComponent(k)}=${encodeURIComponent(params[k]!)}`).join('&')}`;
}

function sign(key: Buffer, purpose: string, params: Record<string, string>): string {
  return createHmac('sha256', key).update(canonical(purpose, params)).digest('hex');
}

function claimsParams(c: LinkClaims): Record<string, string> {
  const params: Record<string, string> = { org: c.org, exp: String(c.exp), nonce: c.nonce, ...c.extra };
  if (c.app) params.app = c.app;
  return params;
}

export interface SignedLink {
  url: string;
  expires_at: string;
  purpose: LinkPurpose;
  nonce: string;
}

export function createSignedLink(opts: {
  masterKey: string;
  dashboardUrl: string;
  purpose: LinkPurpose;
  org: string;
  app?: string;
  extra?: Record<string, string>;
  now?: Date;
  ttlSeconds?: number;
}): SignedLink {
  const nowSec = Math.floor((opts.now ?? new Date()).getTime() / 1000);
  const claims: LinkClaims = {
    purpose: opts.purpose,
    org: opts.org,
    app: opts.app,
    exp: nowSec + (opts.ttlSeconds ?? LINK_TTL_SECONDS),
    nonce: randomBytes(16).toString('hex'),
    extra: opts.extra,
  };
  const params = claimsParams(claims);
  const sig = sign(linkSigningKey(opts.masterKey), opts.purpose, params);
  const qs = new URLSearchParams({ ...params, sig }).toString();
  return {
    url: `${opts.dashboardUrl}/links/${opts.purpose}?${qs}`,
    expires_at: new Date(claims.exp * 1000).toISOString(),
    purpose: opts.purpose,
    nonce: claims.nonce,
  };
}

export type LinkCheck = { ok: true; claims: LinkClaims } | { ok: false; reason: 'invalid' | 'expired' | 'wrong_purpose' };

const EXTRA_KEYS = ['amount_usd', 'platform'];

/**
 * Checks signature (constant time), then purpose, then expiry. `purpose` is the path the link was opened under:
 * a link signed for another purpose never verifies there because the purpose is part of the signed bytes, but an
 * unknown or mismatched one is reported as such first for a clearer refusal.
 */
export function verifySignedLink(masterKey: string, purpose: string, query: Record<string, unknown>, now = new Date()): LinkCheck {
  const str = (k: string): string | undefined => (typeof query[k] === 'string' ? query[k] : undefined);
  const sig = str('sig');
  const org = str('org');
  const exp = str('exp');
  const nonce = str('nonce');
  if (!sig || !org || !exp || !nonce || !/^[0-9a-f]{64}$/.test(sig) || !/^\d{1,12}$/.test(exp)) return { ok: false, reason: 'invalid' };
  const params: Record<string, string> = {};
  for (const [k, v] of Object.entries(query)) {
    if (k === 'sig') continue;
    if (typeof v !== 'string') return { ok: false, reason: 'invalid' };
    params[k] = v;
  }
  const key = linkSigningKey(masterKey);
  const given = Buffer.from(sig, 'hex');
  const matches = (p: string) => timingSafeEqual(Buffer.from(sign(key, p, params), 'hex'), given);
  if (!isLinkPurpose(purpose) || !matches(purpose)) {
    // A genuine link opened under another purpose's page: say so instead of "tampered".
    return LINK_PURPOSES.some((p) => p !== purpose && matches(p))
      ? { ok: false, reason: 'wrong_purpose' }
      : { ok: false, reason: 'invalid' };
  }
  if (Number(exp) * 1000 <= now.getTime()) return { ok: false, reason: 'expired' };
  const extra: Record<string, string> = {};
  for (const k of EXTRA_KEYS) if (params[k] !== undefined) extra[k] = params[k];
  return { ok: true, claims: { purpose, org, app: params.app, exp: Number(exp), nonce, extra } };
}
