// Every signed-link page checks its link the same way before showing or doing anything: signature, purpose,
// expiry, then single use; a bad link gets a clear refusal page (401 tampered or wrong purpose, 410 expired or used).
import { findApp } from '../../../db/apps.js';
import { isSignedLinkUsed } from '../../../db/signed-links.js';
import { LINK_USED } from '../../../actions/signed-links.js';
import { AppError } from '../../../errors/http-errors.js';
import { verifySignedLink, type LinkClaims } from '../../../lib/signed-links.js';
import type { AppContext } from '../../context.js';
import { sendPage } from '../../send-page.js';

export type Checked = { ok: true; claims: LinkClaims } | { ok: false; status: 401 | 410 | 503; message: string };

export async function checkLink(ctx: AppContext, purpose = ctx.params.purpose as string): Promise<Checked> {
  const masterKey = ctx.deps.config.SVC_MASTER_KEY;
  if (!masterKey) return { ok: false, status: 503, message: 'Signed links are not configured on this server.' };
  const result = verifySignedLink(masterKey, purpose, ctx.query);
  if (!result.ok) {
    if (result.reason === 'expired')
      return { ok: false, status: 410, message: 'This link has expired. Links are valid for 15 minutes: ask for a new one.' };
    if (result.reason === 'wrong_purpose')
      return { ok: false, status: 401, message: 'This link was issued for a different page and cannot be used here.' };
    return { ok: false, status: 401, message: 'This link is invalid: it was altered or is incomplete. Ask for a new one.' };
  }
  if (await isSignedLinkUsed(ctx.deps.db, result.claims.nonce)) {
    return { ok: false, status: 410, message: LINK_USED };
  }
  return result;
}

/** The app a link was issued for, still in the link's organization; 410 otherwise. */
export async function linkApp(ctx: AppContext, claims: LinkClaims): Promise<NonNullable<Awaited<ReturnType<typeof findApp>>>> {
  const app = claims.app ? await findApp(ctx.deps.db, claims.app) : undefined;
  if (!app || app.org_id !== claims.org) throw new AppError(410, 'The app of this link no longer exists.');
  return app;
}

/** Spends the link inside the transaction that does its work: false when another request spent it first. */
export function refuse(ctx: AppContext, status: number, message: string): void {
  sendPage(ctx, status, {
    title: 'Link refused',
    lang: 'en',
    body: (
      <>
        <h1>This link cannot be used</h1>
        {'\n'}
        <p class="error">{message}</p>
      </>
    ),
  });
}
