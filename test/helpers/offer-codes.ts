// Creators' store offer codes for pipeline tests (issue 38): rows written as migration 0050's constraints require
// (`reference_name` for ios; `offer_id` with product and base plan, or `offer_tag`, for android; the creator's
// membership), and a second creator of the same campaign. Added and retired through the registry's own action
// (actions/offer-codes.ts), so the pipeline's tests match against rows exactly as the API writes them.
import type { Knex } from 'knex';
import { randomBytes } from 'node:crypto';
import { addCreatorCode, upsertCreator } from '../../db/creators-writes.js';
import { addOfferCode, retireOfferCode as retireThroughAction } from '../../actions/offer-codes.js';
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

/** An active offer code of the membership, added by the registry's action; its id. */
export async function insertOfferCode(db: Knex, app: SeededApp, member: Membership, spec: OfferCodeSpec): Promise<string> {
  const code =
    spec.platform === 'ios'
      ? { platform: 'ios', value: spec.value, custom_code: spec.custom_code ?? null }
      : spec.match === 'offer_id'
        ? { platform: 'android', value: spec.value, product_id: spec.product_id, base_plan_id: spec.base_plan_id }
        : { platform: 'android', value: spec.value };
  const row = await addOfferCode({ db }, { campaignId: app.campaign_id, creatorId: member.creator_id, code });
  const match = spec.platform === 'ios' ? 'reference_name' : spec.match;
  if (row.match !== match) throw new Error(`the registry took ${spec.value} as ${row.match}, the test meant ${match}`);
  return row.id;
}

/** Retires an offer code through the registry's action: it attributes no new purchase. */
export async function retireOfferCode(db: Knex, id: string): Promise<void> {
  await retireThroughAction({ db }, { id });
}

/** A value no other test holds. */
export const offerValue = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;
