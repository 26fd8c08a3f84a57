// Who may join which campaign (CONTRACT.md "Public creator join"): only active campaigns that hold creators (a
// FREE_ACCESS campaign holds comp codes, not creators); anything but a public campaign needs an invitation.

export interface JoinableState {
  status: string;
  campaign_type: string;
}

export function isOpenForJoining(c: JoinableState): boolean {
  return c.status === 'active' && c.campaign_type !== 'FREE_ACCESS';
}

export function requiresInvitation(c: JoinableState): boolean {
  return c.campaign_type !== 'public';
}

export interface InvitationState {
  status: string;
  live: boolean;
  creator_id: string | null;
}

/**
 * A pending, unexpired invitation admits whoever holds its token (creators often join with another address than
 * the one invited). Once accepted it still admits the creator who accepted it, so a retried join stays idempotent.
 */
export function invitationAdmits(invitation: InvitationState | undefined, creatorId: string): boolean {
  if (!invitation) return false;
  if (invitation.status === 'PENDING') return invitation.live;
  return invitation.status === 'ACCEPTED' && invitation.creator_id === creatorId;
}
