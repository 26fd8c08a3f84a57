// A creator joining a campaign (CONTRACT.md "Public creator join") as one transaction: find or create the creator
// by email, check the invitation where the campaign needs one, give the creator a code, accept the invitation.
// Any error rolls all of it back. Joining again with the same email answers the existing membership and writes
// nothing. Races end on unique indexes, never on a pre-check: a taken code is the violation of
// creator_codes_app_code_uq, a concurrent double join that of creator_codes_campaign_creator_uq.
import type { Knex } from 'knex';
import { findCampaignForJoin, type JoinCampaign } from './campaign-join.js';
import { invitationAdmits, isOpenForJoining, requiresInvitation, type InvitationState } from '../lib/campaign-join.js';
import { issueCreatorCode } from '../lib/codes.js';
import { hashToken } from '../lib/credentials.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../errors/http-errors.js';
import { isUniqueViolation } from '../errors/pg-errors.js';
import { addCreatorCode, upsertCreator, type NewCreator } from './creators-writes.js';

export interface JoinRequest extends NewCreator {
  campaignId: string;
  email: string;
  /** Already cleaned up and checked against the code rules; absent: the platform issues one. */
  code?: string;
  invitationToken?: string;
  /** Where the join came from (the request's canonical client IP and User-Agent), kept on a new membership. */
  joinIp?: string | null;
  joinUserAgent?: string | null;
}

/** `joined` false: the creator was already in the campaign and nothing was written. */
export interface JoinResult {
  creatorId: string;
  code: string;
  campaignId: string;
  joined: boolean;
}

/** What the join answer and the welcome mail show beside the result: the campaign as it was joined. */
export interface Joined extends JoinResult {
  campaign: JoinCampaign;
}

const ISSUE_ATTEMPTS = 10;

/** In `db`'s transaction (a savepoint when `db` is one already, so a caller can add its mail to the same commit). */
export async function joinCampaign(db: Knex, req: JoinRequest): Promise<Joined> {
  return db.transaction(async (trx) => {
    const campaign = await findCampaignForJoin(trx, req.campaignId);
    if (!campaign || !isOpenForJoining(campaign)) throw new NotFoundError('Campaign not found or not open for joining.');
    const creator = await findOrCreateCreator(trx, req);
    const invitation = requiresInvitation(campaign) ? await admitByInvitation(trx, campaign, creator.id, req.invitationToken) : undefined;
    const existing = await findMembership(trx, campaign.id, creator.id);
    if (existing) return { ...alreadyJoined(existing, creator.id, campaign.id), campaign };
    const joined = await addMembership(trx, campaign, creator.id, req, invitation ? 'invite' : 'join');
    if (joined.joined && invitation?.status === 'PENDING') await acceptInvitation(trx, invitation.id, creator.id);
    return { ...joined, campaign };
  });
}

/** upsertCreator in a savepoint: a concurrent first join with the same email loses the insert and finds the winner. */
async function findOrCreateCreator(trx: Knex.Transaction, c: NewCreator): Promise<{ id: string }> {
  try {
    return await trx.transaction((sp) => upsertCreator(sp, c));
  } catch (err) {
    if (!isUniqueViolation(err, 'creators_email_lower_uq')) throw err;
    return upsertCreator(trx, c);
  }
}

type Invitation = InvitationState & { id: string };

/**
 * 403 without a live invitation of this campaign (docs/client-api.md "Creator join": the contract names the rule,
 * not its status; 403 because the request is well formed and the campaign exists and is open, but this caller may not
 * join it). The creator row written before is rolled back with the transaction.
 */
async function admitByInvitation(
  trx: Knex.Transaction,
  campaign: { id: string; campaign_type: string },
  creatorId: string,
  token: string | undefined,
): Promise<Invitation> {
  const invitation = token ? await lockInvitation(trx, campaign.id, hashToken(token)) : undefined;
  if (!invitation || !invitationAdmits(invitation, creatorId)) {
    const kind = campaign.campaign_type === 'private' ? 'private' : 'invite-only';
    throw new ForbiddenError(
      `This campaign is ${kind}: an invitation is required to join (invitation_token missing, invalid, expired or already used).`,
    );
  }
  return invitation;
}

/** Locked so two joins with one token cannot both accept it: the second sees it ACCEPTED by the first. */
async function lockInvitation(trx: Knex.Transaction, campaignId: string, tokenHash: string): Promise<Invitation | undefined> {
  return trx('invitations')
    .where({ campaign_id: campaignId, token_hash: tokenHash })
    .forUpdate()
    .first<Invitation | undefined>('id', 'status', 'creator_id', trx.raw('expires_at > now() as live'));
}

async function acceptInvitation(trx: Knex.Transaction, invitationId: string, creatorId: string): Promise<void> {
  await trx('invitations')
    .where({ id: invitationId, status: 'PENDING' })
    .update({ status: 'ACCEPTED', accepted_at: trx.fn.now(), creator_id: creatorId });
}

interface Membership {
  code: string;
  status: string;
}

async function findMembership(trx: Knex.Transaction, campaignId: string, creatorId: string): Promise<Membership | undefined> {
  return trx('creator_codes').where({ campaign_id: campaignId, creator_id: creatorId }).first<Membership | undefined>('code', 'status');
}

function alreadyJoined(m: Membership, creatorId: string, campaignId: string): JoinResult {
  if (m.status !== 'active') throw new ForbiddenError('This creator was removed from the campaign and cannot rejoin it.');
  return { creatorId, code: m.code, campaignId, joined: false };
}

/** Inserts the code in a savepoint so a collision can be answered (requested code) or retried (issued code). */
async function addMembership(
  trx: Knex.Transaction,
  campaign: JoinCampaign,
  creatorId: string,
  req: Pick<JoinRequest, 'code' | 'joinIp' | 'joinUserAgent'>,
  source: 'join' | 'invite',
): Promise<JoinResult> {
  const requested = req.code;
  const seen = { joinIp: req.joinIp, joinUserAgent: req.joinUserAgent };
  for (let attempt = 1; ; attempt++) {
    // Longer issued codes after a few collisions: the 6-character space is getting crowded for this app.
    const code = requested ?? issueCreatorCode(attempt <= 5 ? 6 : 8);
    try {
      await trx.transaction((sp) =>
        addCreatorCode(sp, { appId: campaign.app_id, campaignId: campaign.id, creatorId, code, source, ...seen }),
      );
      return { creatorId, code, campaignId: campaign.id, joined: true };
    } catch (err) {
      if (isUniqueViolation(err, 'creator_codes_campaign_creator_uq')) {
        const winner = await findMembership(trx, campaign.id, creatorId);
        if (winner) return alreadyJoined(winner, creatorId, campaign.id);
      }
      if (!isUniqueViolation(err, 'creator_codes_app_code_uq')) throw err;
      if (requested) throw new ConflictError(`The code ${requested} is already taken in this app. Choose another code.`);
      if (attempt >= ISSUE_ATTEMPTS) throw err;
    }
  }
}
