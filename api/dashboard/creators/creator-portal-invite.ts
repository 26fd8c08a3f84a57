// POST /dashboard/creators/{creator_id}/portal-invite: "add email and invite" on the creators page for a creator who
// has no address (invited or seeded), who therefore cannot sign in to the creator portal. In one transaction the
// address is set (only when none is, only for a creator of this organization) and the portal's sign-in link is
// queued with it (actions/creator-portal-invite.ts); a bad or taken address re-renders the page with the message
// beside the field and the typed text kept.
import { inviteCreatorToPortal } from '../../../actions/creator-portal-invite.js';
import type { AppContext } from '../../context.js';
import { renderCreatorsPage } from './creators-page.js';
import { orgLink } from '../../view-kit/layout.js';
import { signedIn } from '../signed-in.js';
import { field } from '../../view-kit/sign-in-forms.js';

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{1,63}$/;

export async function inviteToPortal(ctx: AppContext): Promise<void> {
  const s = await signedIn(ctx);
  if (!s) return;
  const creatorId = ctx.params.creator_id as string;
  const email = field(ctx.state.body, 'email').trim().slice(0, 254);
  const refuse = (status: number, message: string) => renderCreatorsPage(ctx, s, status, { creatorId, email, message });
  if (!s.orgId) return refuse(404, 'No such creator in your organization.');
  if (!EMAIL.test(email)) return refuse(422, "Enter the creator's email address, like name@example.com.");
  const outcome = await inviteCreatorToPortal(
    { db: ctx.deps.db, dashboardUrl: ctx.deps.config.DASHBOARD_URL },
    { orgId: s.orgId, creatorId, email, userId: s.userId, requestId: ctx.state.requestId, ip: ctx.state.clientIp },
  );
  if (outcome === 'email_taken')
    return refuse(409, 'Another creator already uses this address: ask them to sign in with it, or use another one.');
  if (outcome === 'not_found') return refuse(404, 'No such creator in your organization.');
  if (outcome === 'has_email')
    return refuse(409, 'This creator has an email address already: they can sign in to the creator portal with it.');
  ctx.status = 303;
  ctx.redirect(orgLink(s, `/dashboard/creators?portal_invited=${encodeURIComponent(creatorId)}`));
}
