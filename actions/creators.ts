// A creator's own writes outside joining (joining is actions/join-campaign.ts): enrolling one in a campaign with an
// issued code (the demo history, actions/demo-history.ts), and the digest's unsubscribe link
// (api/creator-portal/unsubscribe.tsx).
import type { Knex } from 'knex';
import { addCreatorCode, setDigestSubscription, upsertCreator, type NewCreator } from '../db/creators-writes.js';
import { issueCreatorCode } from '../lib/codes.js';

/** Finds or creates the creator by email and gives them a new code in the campaign. */
export async function enrolCreator(
  deps: { db: Knex },
  input: { creator: NewCreator; appId: string; campaignId: string; source: 'join' | 'invite' | 'seed' },
): Promise<{ creatorId: string; codeId: string; code: string }> {
  const creator = await upsertCreator(deps.db, input.creator);
  const code = await addCreatorCode(deps.db, {
    appId: input.appId,
    campaignId: input.campaignId,
    creatorId: creator.id,
    code: issueCreatorCode(),
    source: input.source,
  });
  return { creatorId: creator.id, codeId: code.id, code: code.code };
}

export async function unsubscribeFromDigest(deps: { db: Knex }, input: { creatorId: string }): Promise<void> {
  await setDigestSubscription(deps.db, input.creatorId, false);
}
