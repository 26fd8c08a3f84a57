// Post/Redirect/Get for the dashboard: a form post answers 303 and leaves what the next page must say in a
// short-lived cookie, read and deleted by that page. The cookie is sealed (AES-256-GCM under a key derived from the
// CSRF key, so from SVC_MASTER_KEY when set) and bound to the session (the session token's digest is the associated
// data), so it can be neither read nor forged nor replayed in another session; it lives two minutes at most. It
// carries the message, a failed form's errors and typed values, and a secret to show once (which therefore never
// sits in a POST answer or a URL, and is gone on reload).
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { hashToken } from '../../lib/credentials.js';
import type { FlashMessage, FormState } from './ui.js';
import { SESSION_COOKIE } from '../auth/authenticate.js';
import { csrfKeyOf } from '../auth/csrf.js';
import type { AppContext } from '../context.js';

const FLASH_COOKIE = 'svc_flash';
const MAX_AGE_MS = 120_000;
/** Browsers keep cookies up to 4096 bytes: long per-line reports are cut to fit, saying how many lines were left out. */
const MAX_COOKIE = 3800;

export interface ShownOnce {
  name: string;
  label: string;
  value: string;
}
export interface Flash {
  flash?: FlashMessage;
  form?: FormState;
  secrets?: ShownOnce[];
}

const keyOf = (ctx: AppContext) => createHmac('sha256', csrfKeyOf(ctx)).update('svc flash v1').digest();
const bindingOf = (ctx: AppContext) => {
  const session = ctx.cookies.get(SESSION_COOKIE);
  return session ? hashToken(session) : undefined;
};

function seal(ctx: AppContext, binding: string, value: Flash): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(ctx), iv);
  cipher.setAAD(Buffer.from(binding));
  const body = Buffer.concat([cipher.update(deflateRawSync(JSON.stringify({ ...value, exp: Date.now() + MAX_AGE_MS }))), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

function open(ctx: AppContext, binding: string, sealed: string): Flash | undefined {
  try {
    const raw = Buffer.from(sealed, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', keyOf(ctx), raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(binding));
    decipher.setAuthTag(raw.subarray(12, 28));
    const value = JSON.parse(
      inflateRawSync(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()])).toString('utf8'),
    ) as Flash & { exp: number };
    return value.exp > Date.now() ? value : undefined;
  } catch {
    return undefined; // tampered, another session's, or sealed under another key: nothing to say
  }
}

const cookieOptions = (ctx: AppContext, maxAge: number) => ({
  httpOnly: true,
  sameSite: 'lax' as const,
  secure: ctx.secure,
  path: '/',
  overwrite: true,
  maxAge,
});

/** Leaves `value` for the next page of this session (a no-op without a session: there is nobody to tell). */
export function setFlash(ctx: AppContext, value: Flash): void {
  const binding = bindingOf(ctx);
  if (!binding) return;
  let sealed = seal(ctx, binding, value);
  const lines = value.flash?.lines ?? [];
  for (let keep = lines.length - 1; sealed.length > MAX_COOKIE && keep >= 0; keep -= 1) {
    const cut = [...lines.slice(0, keep), `… and ${lines.length - keep} more line(s) not shown here.`];
    sealed = seal(ctx, binding, { ...value, flash: { ...value.flash!, lines: cut } });
  }
  ctx.cookies.set(FLASH_COOKIE, sealed, cookieOptions(ctx, MAX_AGE_MS));
}

/** What the previous post left for this page, deleted as it is read (so a reload does not show it again). */
export function takeFlash(ctx: AppContext): Flash | undefined {
  const sealed = ctx.cookies.get(FLASH_COOKIE);
  if (!sealed) return undefined;
  ctx.cookies.set(FLASH_COOKIE, '', cookieOptions(ctx, 0));
  const binding = bindingOf(ctx);
  return binding ? open(ctx, binding, sealed) : undefined;
}
