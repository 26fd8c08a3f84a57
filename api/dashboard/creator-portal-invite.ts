// POST /dashboard/creators/{creator_id}/portal-invite: "add email and invite" on the creators page for a creator who
// has no address (invited or seeded), who therefore cannot sign in to the creator portal. In one transaction the
// address is set (only when none is, only for a creator of this organization) and the portal's sign-in link is
// queued with it (api/creator-portal/sign-in-mail.ts); a bad or taken address re-renders the page with the message
// beside the field and the typed text kept.
import { appendAudit } from '../../db/audit-log.js';
import { addCreatorEmail } from '../../db/creators.js';
import { findOrganization } from '../../db/organizations.js';
import { isUniqueViolation } from '../../lib/pg-errors.js';
import type { AppContext } from '../context.js';
import { mailSignInLink } from '../creator-portal/sign-in-mail.js';
import { renderCreatorsPage } from './creators-page.js';
import { orgLink, signedIn } from './layout.js';
import { field } from './sign-in-forms.js';

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{1,63}$/;

export async function inviteToPortal(ctx: AppContext): Promise<void> {
  const s = await signedIn(ctx);
  if (!s) return;
  const creatorId = ctx.params.creator_id as string;
  const email = field(ctx.state.body, 'email').trim().slice(0, 254);
  const refuse = (status: number, message: string) => renderCreatorsPage(ctx, s, status, { creatorId, email, message });
  if (!s.orgId) return refuse(404, 'No such creator in your organization.');
  if (!EMAIL.test(email)) return refuse(422, "Enter the creator's email address, like name@example.com.");
  const orgId = s.orgId;
  let outcome: Awaited<ReturnType<typeof addCreatorEmail>>;
  try {
    outcome = await ctx.deps.db.transaction(async (trx) => {
      const added = await addCreatorEmail(trx, orgId, creatorId, email);
      if (typeof added === 'string') return added;
      const org = await findOrganization(trx, orgId);
      await mailSignInLink(trx, ctx.deps.config.DASHBOARD_URL, {
        creatorId,
        email,
        name: added.name,
        invitedBy: { orgId, orgName: org?.name ?? 'An organization' },
      });
      return added;
    });
  } catch (err) {
    if (isUniqueViolation(err, 'creators_email_lower_uq'))
      return refuse(409, 'Another creator already uses this address: ask them to sign in with it, or use another one.');
    throw err;
  }
  if (outcome === 'not_found') return refuse(404, 'No such creator in your organization.');
  if (outcome === 'has_email')
    return refuse(409, 'This creator has an email address already: they can sign in to the creator portal with it.');
  await appendAudit(ctx.deps.db, {
    orgId,
    actorType: 'user',
    actorId: s.userId,
    action: 'dashboard.invite_creator_to_portal',
    targetType: 'creator',
    targetId: creatorId,
    requestId: ctx.state.requestId,
    ip: ctx.state.clientIp,
  });
  ctx.status = 303;
  ctx.redirect(orgLink(s, `/dashboard/creators?portal_invited=${encodeURIComponent(creatorId)}`));
}
