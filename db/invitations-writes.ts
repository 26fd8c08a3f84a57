// Writes of creator invitations (reads stay in db/invitations.ts).
import type { Knex } from 'knex';
import { expireStaleInvitations, VIEW_COLUMNS } from './invitations.js';
import { lockOrganization } from './wallet-ledger-writes.js';
import { enqueueEmail } from './email-outbox-writes.js';
import { isUniqueViolation } from '../errors/pg-errors.js';
import { findOrgBillingSettings, getInviteUsage } from './organizations.js';
import { InvitationView, InviteCapacity, NewInvitation, InviteOutcome } from './invitations.js';

const refuse = (reason: Exclude<InviteOutcome, { ok: true }>['reason'], detail: string): InviteOutcome => ({ ok: false, reason, detail });

/**
 * One invitation in its own transaction: lock the organization row (so concurrent invites cannot both take the last
 * slot), expire stale invitations, check slots and the daily email budget (per-org overrides of the defaults),
 * refuse a second pending invitation for the same email and campaign, then insert the invitation and its email.
 */
export async function createInvitation(db: Knex, inv: NewInvitation, defaults: InviteCapacity): Promise<InviteOutcome> {
  try {
    return await db.transaction(async (trx) => {
      await lockOrganization(trx, inv.orgId);
      await expireStaleInvitations(trx, [inv.orgId]);
      const [settings, usage] = await Promise.all([findOrgBillingSettings(trx, inv.orgId), getInviteUsage(trx, inv.orgId)]);
      const slots = settings?.marketplace_slots ?? defaults.slots;
      const emails = settings?.daily_email_budget ?? defaults.emails;
      if (usage.pendingInvitations >= slots) {
        return refuse(
          'no_slots',
          `All ${slots} marketplace slots are held by pending invitations. Withdraw one (POST ` +
            `/api/agent/invitations/{invitation_id}/withdraw) or wait for invitations to be accepted or expire.`,
        );
      }
      if (usage.emailsSentToday >= emails) {
        return refuse('no_email_budget', `The daily email budget of ${emails} emails is spent for today (UTC). Retry tomorrow.`);
      }
      const pending = await trx('invitations')
        .where({ campaign_id: inv.campaignId, status: 'PENDING' })
        .whereRaw('lower(email) = lower(?)', [inv.email])
        .first('id');
      if (pending)
        return refuse(
          'duplicate_pending',
          `${inv.email} already has a pending invitation to this campaign (${(pending as { id: string }).id}).`,
        );
      const member = await trx('creator_codes as cc')
        .join('creators as c', 'c.id', 'cc.creator_id')
        .where('cc.campaign_id', inv.campaignId)
        .whereRaw('lower(c.email) = lower(?)', [inv.email])
        .first('cc.id');
      if (member) return refuse('already_member', `${inv.email} has already joined this campaign.`);
      const [row] = await trx('invitations')
        .insert({
          campaign_id: inv.campaignId,
          org_id: inv.orgId,
          email: inv.email,
          name: inv.name,
          message: inv.message,
          lang: inv.lang,
          token_hash: inv.tokenHash,
          status: 'PENDING',
          expires_at: inv.expiresAt,
          invited_by: inv.invitedBy,
        })
        .returning<InvitationView[]>(VIEW_COLUMNS);
      const mail = inv.email_(row!.id);
      await enqueueEmail(trx, {
        orgId: inv.orgId,
        to: inv.email,
        subject: mail.subject,
        bodyText: mail.bodyText,
        template: 'creator_invitation',
        templateData: mail.templateData,
        dedupKey: `invite:${row!.id}`,
      });
      return { ok: true as const, invitation: row! };
    });
  } catch (err) {
    // A concurrent invite of the same email to the same campaign won the partial unique index.
    if (isUniqueViolation(err, 'invitations_campaign_email_pending_uq')) {
      return refuse('duplicate_pending', `${inv.email} already has a pending invitation to this campaign.`);
    }
    throw err;
  }
}

/** PENDING -> WITHDRAWN; undefined when it was not pending (any more). */
export async function withdrawInvitation(db: Knex, id: string): Promise<InvitationView | undefined> {
  const [row] = await db('invitations')
    .where({ id, status: 'PENDING' })
    .where('expires_at', '>', db.fn.now())
    .update({ status: 'WITHDRAWN', withdrawn_at: db.fn.now() })
    .returning<InvitationView[]>(VIEW_COLUMNS);
  return row;
}
