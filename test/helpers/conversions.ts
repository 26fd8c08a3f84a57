// Extra campaigns and creators for the purchase pipeline tests, and read-outs of what a conversion earned and
// what the wallet ledger holds for it. Writes go through the same domain functions `svc seed` uses.
import type { ExecutionContext } from 'ava';
import type { Knex } from 'knex';
import { randomBytes } from 'node:crypto';
import { createCampaign } from '../../db/campaigns-writes.js';
import { recordClick } from '../../db/clicks.js';
import { addCreatorCode, upsertCreator } from '../../db/creators-writes.js';
import { reviewBonusAward } from '../../actions/bonus-awards.js';
import { findPayoutDiscrepancies, findReservationDiscrepancies, getWalletTotals, sumWalletLedger } from '../../db/wallet-ledger.js';
import { issueCreatorCode } from '../../lib/codes.js';

export interface SeededAccount {
  app_id: string;
  org_id: string;
  campaign_id: string;
  creator_code: string;
}
export interface Creator {
  creatorId: string;
  creatorCodeId: string;
  code: string;
}

/** Another active public campaign of the seeded app. */
export async function addCampaign(db: Knex, seed: SeededAccount, commissionPercentage = 30): Promise<string> {
  const campaign = await createCampaign(db, {
    appId: seed.app_id,
    orgId: seed.org_id,
    name: `Campaign ${randomBytes(3).toString('hex')}`,
    campaignType: 'public',
    commissionPercentage,
    status: 'active',
  });
  return campaign.id;
}

/** A new creator who joined `campaignId` (default: the seeded campaign) with a fresh code. */
export async function addCreator(db: Knex, seed: SeededAccount, campaignId = seed.campaign_id): Promise<Creator> {
  const tag = randomBytes(4).toString('hex');
  const creator = await upsertCreator(db, { name: `Creator ${tag}`, email: `creator+${tag}@example.com` });
  const code = await addCreatorCode(db, {
    appId: seed.app_id,
    campaignId,
    creatorId: creator.id,
    code: issueCreatorCode(),
    source: 'seed',
  });
  return { creatorId: creator.id, creatorCodeId: code.id, code: code.code };
}

/** A link click of `creator` in the seeded campaign, recorded as the click endpoint records it. */
export function linkClick(
  db: Knex,
  seed: SeededAccount,
  creator: Creator,
  from: { ip: string; userAgent: string; platform: 'ios' | 'android' },
) {
  return recordClick(db, {
    appId: seed.app_id,
    campaignId: seed.campaign_id,
    creatorCodeId: creator.creatorCodeId,
    code: creator.code,
    source: 'link',
    ...from,
  });
}

/** The seeded creator (the owner of `seed.creator_code`). */
export async function seededCreator(db: Knex, seed: SeededAccount): Promise<Creator> {
  const row = await db('creator_codes')
    .where({ app_id: seed.app_id, code: seed.creator_code })
    .first<{ id: string; creator_id: string }>('id', 'creator_id');
  return { creatorId: row.creator_id, creatorCodeId: row.id, code: seed.creator_code };
}

export const conversionsOfUser = (db: Knex, appId: string, appUserId: string) =>
  db('conversions').where({ app_id: appId, app_user_id: appUserId }).orderBy('created_at').select('*');

export const conversionByKey = (db: Knex, appId: string, conversionKey: string) =>
  db('conversions').where({ app_id: appId, conversion_key: conversionKey }).first();

export const commissionsOf = (db: Knex, conversionId: string) =>
  db('commissions').where('conversion_id', conversionId).orderBy('created_at').select('*');

/** Net reserved_delta_micros of the ledger entries caused by this conversion's commissions. */
export async function reservedForConversion(db: Knex, conversionId: string): Promise<number> {
  const row = await db('wallet_ledger as w')
    .join('commissions as c', 'c.id', 'w.commission_id')
    .where('c.conversion_id', conversionId)
    .first<{ reserved: string | null }>(db.raw('coalesce(sum(w.reserved_delta_micros), 0) as reserved'));
  return Number(row?.reserved ?? 0);
}

export async function ledgerEntriesOf(
  db: Knex,
  commissionIds: string[],
): Promise<{ entry_type: string; reserved_delta_micros: number; commission_id: string }[]> {
  return db('wallet_ledger')
    .whereIn('commission_id', commissionIds)
    .orderBy('id')
    .select('entry_type', 'reserved_delta_micros', 'commission_id');
}

/**
 * The books of one organization: shown totals = sums of entries; reserved = what its reserved and payable (released,
 * not yet paid) commissions and approved bonuses hold; payout and clawback entries = what paid commissions and
 * recovered clawbacks account for.
 */
export async function assertExactBooks(t: ExecutionContext, db: Knex, orgId: string): Promise<void> {
  const shown = await getWalletTotals(db, orgId);
  t.deepEqual(shown, await sumWalletLedger(db, orgId));
  t.deepEqual(
    (await findPayoutDiscrepancies(db)).filter((d) => d.orgId === orgId),
    [],
    'payout and clawback entries match their causes',
  );
  t.deepEqual(
    (await findReservationDiscrepancies(db)).filter((d) => d.orgId === orgId),
    [],
    'each reservation is held by a live commission or approved award',
  );
  const held = await db('commissions')
    .where({ org_id: orgId })
    .whereIn('status', ['reserved', 'payable'])
    .sum<{ s: string | null }>({ s: db.raw('commission_micros + platform_fee_micros') })
    .first();
  const bonuses = await db('bonus_awards')
    .where({ org_id: orgId, status: 'approved' })
    .sum<{ s: string | null }>({ s: 'amount_micros' })
    .first();
  t.is(shown.reservedMicros, Number(held?.s ?? 0) + Number(bonuses?.s ?? 0), 'reserved equals the reservations of its causes');
}

/**
 * Money held in the wallet by a real cause: an approved bonus award of `micros` for a new creator in the campaign
 * (its rule inactive, so no purchase earns it). The books check after every test accepts no reservation without one.
 */
export async function reserveByApprovedAward(db: Knex, seed: { org_id: string; campaign_id: string }, micros: number): Promise<string> {
  const creator = await upsertCreator(db, { name: 'Held award', email: `held+${randomBytes(4).toString('hex')}@example.com` });
  const [rule] = await db('bonus_rules')
    .insert({ campaign_id: seed.campaign_id, name: 'held', threshold_conversions: 1, bonus_micros: micros, active: false })
    .returning('id');
  const [award] = await db('bonus_awards')
    .insert({
      bonus_rule_id: rule.id,
      campaign_id: seed.campaign_id,
      creator_id: creator.id,
      org_id: seed.org_id,
      amount_micros: micros,
      threshold_conversions: 1,
      progress_count: 1,
    })
    .returning('id');
  const outcome = await reviewBonusAward({ db }, { id: award.id, decision: 'approve', reviewedBy: 'test' });
  if (outcome.kind !== 'reviewed') throw new Error(`approval refused: ${JSON.stringify(outcome)}`);
  return award.id as string;
}
