// Creators' store offer codes (CONTRACT.md "Creator offer codes"): added for a creator who is a member of the
// campaign, and retired. The agent API and tool server (api/agent/offer-codes.ts) and the dashboard (the same
// handlers) call these. Where the contract is silent:
// * A creator with no active creator code in the campaign (never joined, or removed) gets 404 "not a member of this
//   campaign": an offer code is a membership's second signal, and creator ids are shared between organizations, so
//   saying more than "not found here" would tell another organization's creators apart (the affiliates list's rule).
// * A value the app already has on that platform is 409 naming `value`, whoever holds it and retired included: a past
//   attribution must never become ambiguous. The check is the unique index itself (no read-then-write race).
// * Retiring is idempotent (a repeat answers the retired row) and keeps the row, its value and every attribution.
import type { Knex } from 'knex';
import { findCampaignMembership, findOfferCode, type OfferCodeRow } from '../db/offer-codes.js';
import { insertOfferCode, retireOfferCode as markRetired } from '../db/offer-codes-writes.js';
import { AppError, NotFoundError } from '../errors/http-errors.js';
import { offerCodeFields, type OfferCodeInput } from '../lib/offer-codes.js';

type Deps = { db: Knex };

/** 409 in the 422 shape, so every surface shows it beside the `value` field. */
export class OfferValueTakenError extends AppError {
  constructor(platform: string, value: string) {
    super(409, [
      {
        loc: ['body', 'value'],
        msg:
          `This app already has the ${platform} offer code "${value}" (another creator's, or a retired one: a value is ` +
          'never handed out twice, so past purchases stay with whoever held it). Use another offer.',
        type: 'value_taken',
      },
    ]);
  }
}

export async function addOfferCode(
  deps: Deps,
  input: { campaignId: string; creatorId: string; code: OfferCodeInput },
): Promise<OfferCodeRow> {
  const fields = offerCodeFields(input.code);
  return deps.db.transaction(async (trx) => {
    const membership = await findCampaignMembership(trx, input.campaignId, input.creatorId);
    if (!membership || membership.status !== 'active') {
      throw new NotFoundError('This creator is not a member of this campaign (no active creator code in it).');
    }
    const id = await insertOfferCode(trx, {
      ...fields,
      appId: membership.app_id,
      campaignId: input.campaignId,
      creatorId: input.creatorId,
      creatorCodeId: membership.id,
    });
    if (!id) throw new OfferValueTakenError(fields.platform, fields.value);
    return (await findOfferCode(trx, id))!;
  });
}

/** The code after retiring it (already retired: as it is). */
export async function retireOfferCode(deps: Deps, code: { id: string }): Promise<OfferCodeRow> {
  await markRetired(deps.db, code.id);
  return (await findOfferCode(deps.db, code.id))!;
}
