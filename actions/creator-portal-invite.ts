// "Add email and invite" for a creator without an address (api/dashboard/creators/creator-portal-invite.ts translates the form
// and the answer): in one transaction the address is set (only when none is, only for a creator of this
// organization) and the portal's sign-in link is queued with it (actions/creator-sign-in-mail.ts); the audit entry
// follows the commit.
import type { Knex } from 'knex';
import { addCreatorEmail } from '../db/creators-writes.js';
import { findOrganization } from '../db/organizations.js';
import { isUniqueViolation } from '../errors/pg-errors.js';
import { recordAudit } from './audit.js';
import { mailSignInLink } from './creator-sign-in-mail.js';

export interface PortalInvite {
  orgId: string;
  creatorId: string;
  email: string;
  userId: string;
  requestId?: string | null;
  ip?: string | null;
}

/** `invited`, or why not: no such creator here, the creator has an address already, another creator has this one. */
export async function inviteCreatorToPortal(
  deps: { db: Knex; dashboardUrl: string },
  input: PortalInvite,
): Promise<'invited' | 'not_found' | 'has_email' | 'email_taken'> {
  const { orgId, creatorId, email } = input;
  let outcome: Awaited<ReturnType<typeof addCreatorEmail>>;
  try {
    outcome = await deps.db.transaction(async (trx) => {
      const added = await addCreatorEmail(trx, orgId, creatorId, email);
      if (typeof added === 'string') return added;
      const org = await findOrganization(trx, orgId);
      await mailSignInLink(trx, deps.dashboardUrl, {
        creatorId,
        email,
        name: added.name,
        invitedBy: { orgId, orgName: org?.name ?? 'An organization' },
      });
      return added;
    });
  } catch (err) {
    if (isUniqueViolation(err, 'creators_email_lower_uq')) return 'email_taken';
    throw err;
  }
  if (typeof outcome === 'string') return outcome;
  await recordAudit(deps, {
    orgId,
    actorType: 'user',
    actorId: input.userId,
    action: 'dashboard.invite_creator_to_portal',
    targetType: 'creator',
    targetId: creatorId,
    requestId: input.requestId,
    ip: input.ip,
  });
  return 'invited';
}
