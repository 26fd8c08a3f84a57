// Commissions and the wallet movements they cause, always in the caller's transaction: a commission row and its
// reservation are written together or not at all; a reversal releases exactly what its commission reserved.
import type { Knex } from 'knex';
import type { CommissionAmounts } from '../lib/commission.js';
import { basisShare, type BasisAmounts } from '../lib/commission-basis.js';
import type { CommissionMoney } from '../lib/refund-share.js';
import { fundingOf, walletLowAfter } from '../lib/funding.js';
import { appendLedgerEntry, lockOrganization, LOCKED_WALLET_SQL } from './wallet-ledger-writes.js';
import type { Environment, CommissionRow } from '../schema/types.js';
import { preparedRaw } from './prepared.js';
import type { ReviewDecision } from '../lib/fraud-signals/index.js';

export interface EarnInput {
  conversion: {
    id: string;
    app_id: string;
    org_id: string;
    campaign_id: string;
    creator_id: string;
    creator_code_id: string | null;
    environment: Environment;
  };
  purchaseEventId: string;
  amounts: CommissionAmounts;
  commissionPercentage: number | string;
  platformFeePercent: number;
  /** The basis the commission was computed on and the amounts behind it; absent: gross, the revenue itself. */
  basis?: BasisAmounts;
  /** The campaign's holding period in milliseconds: a production earn becomes payable this long after it is earned. */
  holdMs: number;
  /** When it was earned: now unless the demo history says (IngestEvent.occurredAtMs); the hold counts from it. */
  at?: Date;
  /** The review its fraud signals call for (actions/purchase-event/signals.ts), written by the same statement. */
  review?: ReviewDecision | null;
}

/**
 * Earns a commission; in production reserves commission + fee under the organization lock when the wallet's safe
 * balance covers it.
 * `walletLow`: the safe balance is now below the organization's auto-recharge threshold (auto-recharge on).
 */
export async function earnCommission(trx: Knex.Transaction, e: EarnInput): Promise<EarnOutcome> {
  const c = e.conversion;
  const columns = {
    conversion_id: c.id,
    purchase_event_id: e.purchaseEventId,
    app_id: c.app_id,
    org_id: c.org_id,
    campaign_id: c.campaign_id,
    creator_id: c.creator_id,
    creator_code_id: c.creator_code_id,
    kind: 'earn',
    environment: c.environment,
    revenue_usd_micros: e.amounts.revenueMicros,
    commission_micros: e.amounts.commissionMicros,
    platform_fee_micros: e.amounts.platformFeeMicros,
    commission_percentage: e.commissionPercentage,
    platform_fee_percentage: e.platformFeePercent,
    ...basisColumns(e.basis ?? grossBasis(e.amounts.revenueMicros)),
    ...(e.at ? { created_at: e.at } : {}),
    ...(e.review ? { review_state: e.review.action === 'hold' ? 'held' : 'flagged' } : {}),
  };
  if (c.environment !== 'PRODUCTION') {
    const [commission] = await trx('commissions')
      .insert({ ...columns, status: 'simulated', payable_at: null })
      .returning<CommissionRow[]>('*');
    return { commission: commission!, funded: true, walletLow: false };
  }
  // One statement takes the organization lock, decides on the totals read under it, records the earn and its
  // reservation: the lock, which serialises every reservation of the organization, is held for one round trip
  // fewer than three before the commit (test/integration/purchase-statements.test.ts counts it). The decision is
  // lib/funding.ts's fundingOf written as SQL (FUNDED_SQL below), which test/integration/funding-sql.test.ts holds
  // to fundingOf's own table.
  const reserve = e.amounts.reserveMicros;
  const earn = trx('commissions')
    .insert({
      ...columns,
      status: trx.raw(`(select ${FUNDED_SQL('balance - reserved', '?::bigint')} from wallet)`, [reserve]),
      payable_at: trx.raw("coalesce(?::timestamptz, now()) + ? * interval '1 millisecond'", [e.at ?? null, e.holdMs]),
    })
    .returning('*')
    .toSQL();
  const reservation = reservationRowSql('earn', 'commission + platform fee', 'conversion');
  // A review rides on the same statement: a commission held or flagged is never written without its review.
  const review = e.review ? reviewRowSql(e.review) : null;
  const { rows } = await preparedRaw<CommissionRow & { safe_before: string; recharge_below: string | null }>(
    trx,
    `
    with wallet as (${LOCKED_WALLET_SQL}),
    earn as (${earn.sql}),
    reservation as (${reservation.sql})${review ? `,\n    review as (${review.sql})` : ''}
    select earn.*, wallet.balance - wallet.reserved as safe_before, wallet.recharge_below from earn, wallet`,
    [c.org_id, ...earn.bindings, ...reservation.bindings, ...(review?.bindings ?? [])],
  );
  const { safe_before: safeBefore, recharge_below: rechargeBelow, ...commission } = rows[0]!;
  const status = commission.status === 'reserved' ? 'reserved' : 'unfunded';
  const walletLow = walletLowAfter(Number(safeBefore), status, reserve, rechargeBelow === null ? null : Number(rechargeBelow));
  return { commission, funded: status === 'reserved', walletLow };
}

/**
 * lib/funding.ts's fundingOf as a SQL expression, for the one statement that decides under the lock it takes:
 * `safe` and `reserve` are SQL expressions of micro-USD.
 */
export const FUNDED_SQL = (safe: string, reserve: string) => `case when ${safe} >= ${reserve} then 'reserved' else 'unfunded' end`;

/** The review row of a commission the earn statement writes (a CTE named `earn` holds the commission). */
function reviewRowSql(r: ReviewDecision): { sql: string; bindings: string[] } {
  return {
    sql: `insert into commission_reviews (commission_id, org_id, app_id, campaign_id, creator_id, action, signals)
      select id, org_id, app_id, campaign_id, creator_id, ?, ?::jsonb from earn
      on conflict (commission_id) do nothing returning id`,
    bindings: [r.action, JSON.stringify(r.signals)],
  };
}

export interface EarnOutcome {
  commission: CommissionRow;
  funded: boolean;
  walletLow: boolean;
}

/**
 * The `reserve` ledger row of a commission marked reserved, written by the statement that marks it (a CTE named
 * `source` holding the commission's row): the one builder of that row, for the earn statement and the top-up
 * catch-up, so the reservation costs no round trip of its own under the organization lock. It reserves commission +
 * fee (lib/commission.ts reserveMicros); a zero reservation writes no row.
 */
function reservationRowSql(source: 'earn' | 'funded', memo: string, createdBy: string): { sql: string; bindings: string[] } {
  return {
    sql:
      `insert into wallet_ledger (org_id, entry_type, balance_delta_micros, ` +
      `reserved_delta_micros, idempotency_key, commission_id, memo, created_by)
      select org_id, 'reserve', 0, commission_micros + platform_fee_micros, 'reserve:' || id, id, ?, ? from ${source}
      where status = 'reserved' and commission_micros + platform_fee_micros > 0
      on conflict (idempotency_key) do nothing returning id`,
    bindings: [memo, createdBy],
  };
}

const grossBasis = (revenueMicros: number): BasisAmounts => ({
  basis: 'gross',
  precision: 'exact',
  grossMicros: revenueMicros,
  taxMicros: null,
  storeFeeMicros: null,
  baseMicros: revenueMicros,
});

/** The commission row's columns of its basis; `sign` -1 for a reversal's negative mirror. */
function basisColumns(b: BasisAmounts, sign: 1 | -1 = 1): Record<string, unknown> {
  const signed = (micros: number | null) => (micros === null ? null : sign * micros);
  return {
    commission_basis: b.basis,
    basis_precision: b.precision,
    basis_gross_micros: signed(b.grossMicros),
    basis_tax_micros: signed(b.taxMicros),
    basis_store_fee_micros: signed(b.storeFeeMicros),
    basis_base_micros: signed(b.baseMicros),
  };
}

/** A commission's stored basis (a row written before bases existed was migrated to gross). */
export function basisOf(c: CommissionRow): BasisAmounts {
  const n = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    basis: c.commission_basis,
    precision: c.basis_precision,
    grossMicros: n(c.basis_gross_micros) ?? Number(c.revenue_usd_micros),
    taxMicros: n(c.basis_tax_micros),
    storeFeeMicros: n(c.basis_store_fee_micros),
    baseMicros: n(c.basis_base_micros) ?? Number(c.revenue_usd_micros),
  };
}

/** A transaction's earn with what stands of it: its amounts less its reversals (a share clawed back after release). */
export type TransactionEarn = CommissionRow & { live: CommissionMoney };

export const amountsOf = (c: CommissionRow): CommissionMoney => ({
  revenueMicros: Number(c.revenue_usd_micros),
  commissionMicros: Number(c.commission_micros),
  platformFeeMicros: Number(c.platform_fee_micros),
});

/**
 * The earns of one transaction of the conversion, newest first, locked, each with what stands of it (a restored share
 * and a reduced remainder may stand side by side; a reversed earn stands at zero), and its base: the earn of the
 * transaction's purchase event, the amounts every share is computed from (lib/refund-share.ts). A remainder carries
 * the date of the earn it replaces, so the base is told by its event, not by its date.
 */
export async function transactionEarns(
  trx: Knex.Transaction,
  conversionId: string,
  transactionId: string,
): Promise<{ earns: TransactionEarn[]; base: TransactionEarn | undefined }> {
  const rows = await trx('commissions as c')
    .join('purchase_events as p', 'p.id', 'c.purchase_event_id')
    .where({ 'c.conversion_id': conversionId, 'c.kind': 'earn', 'p.transaction_id': transactionId })
    .orderBy([
      { column: 'c.created_at', order: 'desc' },
      { column: 'c.id', order: 'desc' },
    ])
    .forUpdate('c')
    .select<(CommissionRow & Reversed & { is_base: boolean })[]>(
      'c.*',
      trx.raw(`p.event_type in ('INITIAL_PURCHASE', 'RENEWAL', 'NON_RENEWING_PURCHASE') as is_base, ${REVERSED_SQL('c')}`),
    );
  let base: TransactionEarn | undefined;
  const earns = rows.map(({ is_base: isBase, reversed_revenue: r, reversed_commission: c, reversed_fee: f, ...row }) => {
    const earn = Object.assign(row, { live: standing(row, { reversed_revenue: r, reversed_commission: c, reversed_fee: f }) });
    if (isBase) base = earn;
    return earn;
  });
  return { earns, base };
}

/** A commission's reversal rows summed, as three columns of the commission aliased `c`. */
const REVERSED_SQL = (c: string) =>
  ['revenue_usd_micros as reversed_revenue', 'commission_micros as reversed_commission', 'platform_fee_micros as reversed_fee']
    .map((col) => {
      const [sum, as] = col.split(' as ');
      return `(select coalesce(sum(r.${sum}), 0) from commissions r where r.reverses_commission_id = ${c}.id) as ${as}`;
    })
    .join(', ');
interface Reversed {
  reversed_revenue: string;
  reversed_commission: string;
  reversed_fee: string;
}

/** What stands of a commission: its amounts less its reversals (negative rows). */
function standing(c: CommissionRow, r: Reversed): CommissionMoney {
  const amounts = amountsOf(c);
  return {
    revenueMicros: amounts.revenueMicros + Number(r.reversed_revenue),
    commissionMicros: amounts.commissionMicros + Number(r.reversed_commission),
    platformFeeMicros: amounts.platformFeeMicros + Number(r.reversed_fee),
  };
}

/** What stands of one commission after its reversal rows (a share clawed back after release). */
export async function standingOf(trx: Knex.Transaction, c: CommissionRow): Promise<CommissionMoney> {
  const r = await trx('commissions as c')
    .where('c.id', c.id)
    .first<Reversed>(trx.raw(REVERSED_SQL('c')));
  return standing(c, r);
}

/**
 * Earns `amounts` again on the terms of `template` (its creator, campaign and stored percentages, never the
 * campaign's current ones): a new earn row on `eventId`, reserved like any earn when the wallet covers it. Held for
 * `holdMs` from `at` (now when absent): a refund reversal's restored share is held from now; a partial refund's
 * remainder keeps the date and the release of the earn it replaces. It keeps the review of `reviewFrom` (the
 * template unless told): a held commission's remainder or restored share stays held and is reviewed (carryReview).
 */
export async function earnAgain(
  trx: Knex.Transaction,
  template: CommissionRow,
  amounts: CommissionMoney,
  eventId: string,
  holdMs: number,
  at?: Date,
  reviewFrom: CommissionRow = template,
): Promise<EarnOutcome> {
  const outcome = await earnCommission(trx, {
    conversion: {
      id: template.conversion_id,
      app_id: template.app_id,
      org_id: template.org_id,
      campaign_id: template.campaign_id,
      creator_id: template.creator_id,
      creator_code_id: template.creator_code_id,
      environment: template.environment,
    },
    purchaseEventId: eventId,
    amounts: { ...amounts, reserveMicros: amounts.commissionMicros + amounts.platformFeeMicros },
    commissionPercentage: template.commission_percentage,
    platformFeePercent: Number(template.platform_fee_percentage ?? 0),
    // The template's stored basis, never the campaign's current one.
    basis: basisShare(basisOf(template), amounts.revenueMicros),
    holdMs,
    ...(at ? { at } : {}),
  });
  if (reviewFrom.review_state) await carryReview(trx, reviewFrom.id, outcome.commission.id);
  return outcome;
}

/**
 * The new earn `to` takes the review state of `from`. An open review of `from` concerns `to` as well: it moves when
 * `from` no longer stands (a partial refund's remainder replaces it), else `to` gets its own copy to decide (a
 * restored share beside a remainder). A decided one stays where it was decided.
 */
async function carryReview(trx: Knex.Transaction, from: string, to: string): Promise<void> {
  await trx.raw(
    `with source as (select review_state, reversed_at is not null as replaced from commissions where id = ?),
     state as (update commissions set review_state = (select review_state from source) where id = ?),
     moved as (update commission_reviews set commission_id = ? where commission_id = ? and status = 'open'
               and (select replaced from source) returning id)
     insert into commission_reviews (commission_id, org_id, app_id, campaign_id, creator_id, action, signals, raised_at_step)
     select ?, org_id, app_id, campaign_id, creator_id, action, signals, raised_at_step from commission_reviews
     where commission_id = ? and status = 'open' and not (select replaced from source)`,
    [from, to, to, from, to, from],
  );
}

/** The negative mirror row of a refunded earn (its reversal), or of the `part` of it a partial refund takes, on the refund event. */
export async function insertReversalRow(
  trx: Knex.Transaction,
  original: CommissionRow,
  refundEventId: string,
  part: CommissionMoney = amountsOf(original),
): Promise<CommissionRow> {
  const [reversal] = await trx('commissions')
    .insert({
      conversion_id: original.conversion_id,
      purchase_event_id: refundEventId,
      app_id: original.app_id,
      org_id: original.org_id,
      campaign_id: original.campaign_id,
      creator_id: original.creator_id,
      creator_code_id: original.creator_code_id,
      kind: 'reversal',
      reverses_commission_id: original.id,
      environment: original.environment,
      revenue_usd_micros: -part.revenueMicros,
      commission_micros: -part.commissionMicros,
      platform_fee_micros: -part.platformFeeMicros,
      commission_percentage: original.commission_percentage,
      platform_fee_percentage: original.platform_fee_percentage,
      ...basisColumns(basisShare(basisOf(original), part.revenueMicros), -1),
      status: original.environment === 'PRODUCTION' ? 'reversed' : 'simulated',
    })
    .returning<CommissionRow[]>('*');
  return reversal!;
}

/**
 * Reverses a commission: a negative mirror row, the original marked reversed (a sandbox original stays 'simulated',
 * only reversed_at marks it), its reservation released.
 */
export async function reverseCommission(
  trx: Knex.Transaction,
  original: CommissionRow,
  refundEventId: string,
  memo = 'refund',
): Promise<CommissionRow> {
  const reversal = await insertReversalRow(trx, original, refundEventId);
  const status = original.environment === 'PRODUCTION' ? 'reversed' : original.status;
  await trx('commissions').where('id', original.id).update({ status, reversed_at: trx.fn.now() });
  const reserved = original.commission_micros + original.platform_fee_micros;
  if (original.status === 'reserved' && reserved > 0) {
    await appendLedgerEntry(trx, {
      orgId: original.org_id,
      entryType: 'reversal',
      balanceDeltaMicros: 0,
      reservedDeltaMicros: -reserved,
      idempotencyKey: `reverse:${original.id}`,
      commissionId: original.id,
      memo,
      createdBy: 'conversion',
    });
  }
  return reversal;
}

/**
 * Catch-up after money arrived, in the caller's transaction under the organization lock: production commissions
 * recorded `unfunded` are reserved oldest first while the safe balance covers each; the first that does not fit
 * stops the pass (an older commission is never skipped for a smaller newer one). Returns how many were funded.
 */
export async function fundUnfundedCommissions(trx: Knex.Transaction, orgId: string): Promise<number> {
  let { safeAvailableMicros } = await lockOrganization(trx, orgId);
  const waiting = await trx('commissions')
    .where({ org_id: orgId, status: 'unfunded', kind: 'earn', environment: 'PRODUCTION' })
    .whereNull('reversed_at')
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .forUpdate()
    .select<CommissionRow[]>('*');
  let funded = 0;
  for (const c of waiting) {
    const reserve = c.commission_micros + c.platform_fee_micros;
    if (fundingOf(safeAvailableMicros, reserve) === 'unfunded') break;
    // One round trip per commission: its status and its reservation in one statement.
    const reservation = reservationRowSql('funded', 'commission + platform fee (funded after top-up)', 'catch-up');
    await trx.raw(
      `with funded as (update commissions set status = 'reserved' where id = ? returning *), reservation as (${reservation.sql}) select 1`,
      [c.id, ...reservation.bindings],
    );
    safeAvailableMicros -= reserve;
    funded++;
  }
  return funded;
}
