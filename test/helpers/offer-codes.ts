// Creators' store offer codes for pipeline tests (issue 38): rows written as migration 0050's constraints require
// (`reference_name` for ios; `offer_id` with product and base plan, or `offer_tag`, for android; the creator's
// membership), and a second creator of the same campaign. The registry (actions/offer-codes.ts) is another owner's;
// these tests only need rows the pipeline matches against.
import type { Knex } from 'knex';
import { randomBytes } from 'node:crypto';
import { addCreatorCode, upsertCreator } from '../../db/creators-writes.js';
import { issueCreatorCode } from '../../lib/codes.js';
import type { SeededApp } from './seed.js';

export interface Membership {
  creator_id: string;
  creator_code_id: string;
  creator_code: string;
}

/** The seeded creator's membership (its creator code row). */
export async function seededMembership(db: Knex, app: SeededApp): Promise<Membership> {
  const row = await db('creator_codes').where({ app_id: app.app_id, code: app.creator_code }).first('id');
  return { creator_id: app.creator_id, creator_code_id: row.id as string, creator_code: app.creator_code };
}

/** Another creator joined to the app's campaign. */
export async function secondCreator(db: Knex, app: SeededApp, name = 'Second Creator'): Promise<Membership> {
  const creator = await upsertCreator(db, { name, email: `creator2+${randomBytes(4).toString('hex')}@example.com` });
  const code = await addCreatorCode(db, {
    appId: app.app_id,
    campaignId: app.campaign_id,
    creatorId: creator.id,
    code: issueCreatorCode(),
    source: 'seed',
  });
  return { creator_id: creator.id, creator_code_id: code.id, creator_code: code.code };
}

export type OfferCodeSpec =
  | { platform: 'ios'; value: string; custom_code?: string }
  | { platform: 'android'; match: 'offer_id'; value: string; product_id: string; base_plan_id: string }
  | { platform: 'android'; match: 'offer_tag'; value: string };

/** An active offer code of the membership; its id. */
export async function insertOfferCode(db: Knex, app: SeededApp, member: Membership, spec: OfferCodeSpec): Promise<string> {
  const [row] = await db('offer_codes')
    .insert({
      app_id: app.app_id,
      campaign_id: app.campaign_id,
      creator_id: member.creator_id,
      creator_code_id: member.creator_code_id,
      platform: spec.platform,
      match: spec.platform === 'ios' ? 'reference_name' : spec.match,
      value: spec.value,
      custom_code: spec.platform === 'ios' ? (spec.custom_code ?? null) : null,
      product_id: spec.platform === 'android' && spec.match === 'offer_id' ? spec.product_id : null,
      base_plan_id: spec.platform === 'android' && spec.match === 'offer_id' ? spec.base_plan_id : null,
    })
    .returning('id');
  return row.id as string;
}

/** Retires an offer code (as the registry does): it attributes no new purchase. */
export async function retireOfferCode(db: Knex, id: string): Promise<void> {
  await db('offer_codes').where({ id }).update({ status: 'retired', retired_at: db.fn.now() });
}

/** A value no other test holds. */
export const offerValue = (prefix: string) => `${prefix}_${randomBytes(4).toString('hex')}`;
