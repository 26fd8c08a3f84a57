// Applies one purchase event to its conversion in ONE database transaction (spec "Processing (in order)": record,
// find the code, match campaign and creator, compute commission and fee, record the conversion, reserve funds).
// Safe to run twice: the event's unique keys make a repeat answer the first result, so a worker killed mid-event
// and a retried activity still apply the event once. The conversion workflow's applyPurchaseEvent activity
// (activities/purchases/index.ts) calls it and only translates its errors for Temporal.
import type { Knex } from 'knex';
import type { PaidPeriod } from '../../lib/commission-basis.js';
import { isWholeShare, isZero, planTakeBack, standing, stillToTakeBack, toRestore } from '../../lib/refund-share.js';
import { isRefund, type PurchaseEvent } from '../../lib/purchase-event.js';
import { conversionWorkflowId, type IngestEvent, type IngestResult } from '../../workflows/conversion-messages.js';
import { isProcessedOutcome, resolveAttribution, ORGANIC } from './attribution.js';
import { redeemedInThisPeriod } from '../../lib/offer-code-match.js';
import {
  attributionColumns,
  dayMsOf,
  earn,
  factsOfEvent,
  INSUFFICIENT_FUNDS,
  type EarnDeps,
  type Earned,
  type KnownTerms,
} from './earn.js';
import { awardReachedMilestones, reviewAwardsAfterRefund } from '../../db/bonus-awards-writes.js';
import { activeBonusRulesColumn } from '../../db/bonus-rules.js';
import { nextReleaseAt, nextReleaseAtColumn, releaseAtOf } from '../../db/commission-holding.js';
import { takeBackCommission } from '../../db/commission-holding-writes.js';
import { amountsOf, earnAgain, transactionEarns } from '../../db/commissions.js';
import { lockOrganization } from '../../db/wallet-ledger-writes.js';
import { findCampaignTerms } from '../../db/campaigns.js';
import { findConversion } from '../../db/conversions.js';
import { conversionUpdateCte, createConversion, findConversionWithTermsForUpdate, updateConversion } from '../../db/conversions-writes.js';
import { isPurchaseOfConversion } from '../../db/purchase-events.js';
import {
  insertPurchaseEvent,
  markPurchaseEventReturning,
  noConversionColumns,
  reclaimFailedPurchaseEvent,
} from '../../db/purchase-events-writes.js';
import { inboxDeliveredCte } from '../../db/purchase-inbox-writes.js';
import type { PurchaseEventRow, ConversionRow } from '../../schema/types.js';

export interface ApplyDeps extends EarnDeps {
  db: Knex;
}

/** The event's answer, and whom the auto-recharge signal concerns (null: the wallet did not drop below it). */
export interface Applied {
  result: IngestResult;
  wallet: WalletDrop | null;
}

/**
 * Applies the event in one transaction. Errors are the caller's to translate (refused data, outages, bugs:
 * activities/purchases/index.ts); the auto-recharge signal for `wallet` is the caller's to send after the commit.
 */
export async function applyPurchaseEvent(deps: ApplyDeps, ingest: IngestEvent): Promise<Applied> {
  return deps.db.transaction((trx) => applyEvent(trx, deps, ingest));
}

const PURCHASE_TYPES = new Set(['INITIAL_PURCHASE', 'RENEWAL', 'NON_RENEWING_PURCHASE']);

export type WalletDrop = { orgId: string } | { conversionId: string };

/**
 * `patch`: the conversion's changes, written by `finish` in the statement that records the event's outcome (with the
 * conversion's latest event), one round trip fewer per event. `walletLowOrgId`: an earn left this organization's
 * wallet below its auto-recharge threshold.
 */
interface Step extends Omit<Earned, 'conversion'> {
  conversion: ConversionRow | undefined;
  patch?: Record<string, unknown>;
}

/** Every event records itself as its conversion's latest, in the same UPDATE as the conversion's changes. */
function lastEvent(type: string, now: Now): Record<string, unknown> {
  return { last_event_type: type, last_event_at: now };
}

/** The time the event's rows carry: now, or the demo history's explicit time (IngestEvent.occurredAtMs). */
type Now = Knex.Raw | Date;
const nowOf = (trx: Knex.Transaction, ingest: IngestEvent): Now =>
  ingest.occurredAtMs === undefined ? trx.fn.now() : new Date(ingest.occurredAtMs);
const dateOf = (now: Now): Date | undefined => (now instanceof Date ? now : undefined);

async function applyEvent(trx: Knex.Transaction, deps: ApplyDeps, ingest: IngestEvent): Promise<Applied> {
  const { appId, conversionKey: key, event: e, redrive } = ingest;
  const now = nowOf(trx, ingest);
  const inserted = await insertPurchaseEvent(trx, appId, e, dateOf(now));
  let row = inserted.row;
  if (!inserted.inserted) {
    // Recorded before: a redelivery answers the first result. Only an operator's re-drive applies an event that
    // was recorded as failed, taking its row back (a concurrent re-drive then finds it taken).
    const reclaimed = redrive && row.processing_status === 'failed' ? await reclaimFailedPurchaseEvent(trx, row.id, appId, e) : undefined;
    if (!reclaimed) {
      const result = await answerRedelivery(trx, deps, row);
      return { result, wallet: result.conversionId ? { conversionId: result.conversionId } : null };
    }
    row = reclaimed;
  }
  const locked = await findConversionWithTermsForUpdate(trx, appId, key);
  let conversion = locked?.conversion;
  if (!conversion) {
    if (!PURCHASE_TYPES.has(e.type))
      return { result: await finish(trx, deps, ingest, row, { conversion: undefined, error: null }, 'processed'), wallet: null };
    conversion = await openConversion(trx, appId, key, e, row.id, dateOf(now));
  }
  const terms = locked?.terms && conversion.campaign_id ? { campaignId: conversion.campaign_id, ...locked.terms } : undefined;
  const step = await applyToConversion(trx, deps, conversion, e, row, now, terms, locked?.paidPeriods ?? []);
  const result = await finish(trx, deps, ingest, row, step, isProcessedOutcome(step.error) ? 'processed' : 'error');
  return { result, wallet: step.walletLowOrgId ? { orgId: step.walletLowOrgId } : null };
}

async function openConversion(
  trx: Knex.Transaction,
  appId: string,
  key: string,
  e: PurchaseEvent,
  eventId: string,
  at: Date | undefined,
): Promise<ConversionRow> {
  const { attribution, error } = await resolveAttribution(trx, appId, e);
  const trial = e.periodType === 'TRIAL';
  const conversion = await createConversion(trx, {
    appId,
    conversionKey: key,
    kind: e.type === 'NON_RENEWING_PURCHASE' ? 'one_time' : 'subscription',
    attribution,
    appUserId: e.appUserId ?? e.originalAppUserId,
    productId: e.productId,
    store: e.store,
    environment: e.environment,
    status: trial ? 'trialing' : 'active',
    periodType: e.periodType,
    trial,
    firstPurchaseEventId: eventId,
    workflowId: conversionWorkflowId(appId, key),
    at,
  });
  return Object.assign(conversion, { openingError: error });
}

/** The event's effect on the conversion (spec "Events" table). */
async function applyToConversion(
  trx: Knex.Transaction,
  deps: ApplyDeps,
  c: ConversionRow,
  e: PurchaseEvent,
  ev: PurchaseEventRow,
  now: Now,
  terms: KnownTerms | undefined,
  paidPeriods: readonly PaidPeriod[],
): Promise<Step> {
  const openingError = (c as ConversionRow & { openingError?: string | null }).openingError ?? null;
  if (isRefund(e)) return refund(trx, c, e, ev, now);
  switch (e.type) {
    case 'INITIAL_PURCHASE':
    case 'NON_RENEWING_PURCHASE':
    case 'RENEWAL':
      return purchase(trx, deps, c, e, ev, openingError, now, terms, paidPeriods);
    case 'CANCELLATION':
      return { conversion: c, error: null, patch: { status: c.status === 'churned' ? c.status : 'cancelled', cancelled_at: now } };
    case 'UNCANCELLATION':
      return { conversion: c, error: null, patch: { status: c.status === 'cancelled' ? 'active' : c.status, cancelled_at: null } };
    case 'EXPIRATION':
      return { conversion: c, error: null, patch: { status: 'churned', churned_at: now } };
    case 'PRODUCT_CHANGE':
      return { conversion: c, error: null, patch: { product_id: e.newProductId ?? e.productId ?? c.product_id } };
    case 'BILLING_ISSUE':
      return { conversion: c, error: null, patch: { status: c.status === 'active' ? 'billing_issue' : c.status, billing_issue_at: now } };
    case 'REFUND_REVERSED':
      return restore(trx, deps, c, e, ev);
    default:
      return { conversion: c, error: null };
  }
}

/** A paid purchase or renewal earns commission; a trial (price 0) waits; a churned conversion earns no more. */
async function purchase(
  trx: Knex.Transaction,
  deps: ApplyDeps,
  c: ConversionRow,
  e: PurchaseEvent,
  ev: PurchaseEventRow,
  opening: string | null,
  now: Now,
  terms: KnownTerms | undefined,
  paidPeriods: readonly PaidPeriod[],
): Promise<Step> {
  let openingError = opening;
  let conversion = c;
  // A family-shared App Store transaction is a family member's access to someone else's purchase: never paid here.
  const paid = (e.priceUsd ?? 0) > 0 && e.periodType !== 'TRIAL' && !e.familyShared;
  const patch: Record<string, unknown> = {};
  // An offer redeemed on an organic subscription (the App Store marks the renewal that redeemed it): attributed from
  // this transaction on, earlier periods stay organic. A lapsed (churned) organic subscriber who comes back with an
  // offer is active again and earns from the comeback (docs/purchase-pipeline.md "Creator offer codes").
  const offerNow = e.type === 'RENEWAL' && e.offer !== undefined && redeemedInThisPeriod(e.offer);
  let comeback = false;
  if (paid && !c.attributed && ((c.trial && c.trial_converted_at === null) || offerNow)) {
    // An organic trial whose user was attributed meanwhile (code entered, click identified) is attributed when it
    // converts. Written at once: the commission and the bonus count below read the conversion's attribution.
    const { attribution, error } = await resolveAttribution(trx, c.app_id, e);
    if (attribution) {
      comeback = c.status === 'churned';
      conversion = await updateConversion(trx, c.id, {
        ...attributionColumns(attribution, now),
        ...(comeback ? { status: 'active', churned_at: null } : {}),
      });
    } else openingError = error;
  }
  if (paid) {
    patch.billing_cycles = c.billing_cycles + 1;
    if (c.status === 'trialing' || e.isTrialConversion) Object.assign(patch, { status: 'active', trial_converted_at: now });
    else if (c.status === 'billing_issue' || c.status === 'cancelled') patch.status = 'active';
    // A paid period after a refunded one: the subscription is paid again (the refund concerned its own period only).
    else if (c.status === 'refunded') Object.assign(patch, { status: 'active', refunded_at: null });
  }
  if (e.productId && e.type === 'RENEWAL') patch.product_id = e.productId;
  if (!conversion.attributed) return { conversion, error: openingError ?? ORGANIC, patch };
  // Attributed: what the opening said is a notice at most (another creator's offer code).
  if (!paid || (c.status === 'churned' && !comeback)) return { conversion, error: openingError, patch };
  const earned = await earn(trx, deps, conversion, ev.id, factsOfEvent(e, paidPeriods), dateOf(now), terms);
  return { ...earned, error: earned.error ?? openingError, patch };
}

/**
 * A refund concerns one paid period: the refunded transaction's. Its commission (and only its) is taken back: reversed
 * with its reservation released inside the holding period, a clawback after it (db/commission-holding.ts). A partial
 * refund (the event's `refundShare`, the store's cumulative share of the transaction) takes back only what stands
 * above the rest the share leaves, so a redelivery or a smaller share takes nothing and a larger one its difference
 * (lib/refund-share.ts). A whole refund leaves the conversion `refunded` until a later paid period; a partial one
 * leaves its status alone (the period stays partly paid). A refund naming a transaction this conversion never
 * purchased changes nothing and is recorded with the reason.
 */
async function refund(trx: Knex.Transaction, c: ConversionRow, e: PurchaseEvent, ev: PurchaseEventRow, now: Now): Promise<Step> {
  if (!e.transactionId || !(await isPurchaseOfConversion(trx, c.id, e.transactionId)))
    return { conversion: c, error: unknownTransaction('refund', e.transactionId) };
  // The organization lock before the commission's state is read: a payout run holds it while it pays, so a refund
  // sees the commission either before the run (reversed, or a clawback the run nets) or after it (paid: a clawback).
  if (c.environment === 'PRODUCTION' && c.org_id) await lockOrganization(trx, c.org_id);
  const { earns, base } = await transactionEarns(trx, c.id, e.transactionId);
  const parts = base ? planTakeBack(earns, stillToTakeBack(amountsOf(base), standing(earns), e.refundShare)) : [];
  for (const { earn, part, whole } of parts) await takeBackCommission(trx, earn, ev.id, { part, whole });
  if (base && parts.length > 0 && base.environment === 'PRODUCTION') {
    await reviewAwardsAfterRefund(trx, {
      campaignId: base.campaign_id,
      creatorId: base.creator_id,
      conversionId: c.id,
      refundEventId: ev.id,
    });
  }
  return { conversion: c, error: null, patch: isWholeShare(e.refundShare) ? { status: 'refunded', refunded_at: now } : {} };
}

/**
 * REFUND_REVERSED (App Store): the refund of that transaction is undone, whole or partial. What its refunds took
 * back is earned again at the transaction's stored amounts and terms (not the campaign's current ones), as one new
 * earn reserved when the wallet covers it and held from now, once; the conversion is paid again.
 */
async function restore(trx: Knex.Transaction, deps: ApplyDeps, c: ConversionRow, e: PurchaseEvent, ev: PurchaseEventRow): Promise<Step> {
  if (!e.transactionId || !(await isPurchaseOfConversion(trx, c.id, e.transactionId)))
    return { conversion: c, error: unknownTransaction('refund reversal', e.transactionId) };
  const patch = c.status === 'refunded' ? { status: 'active', refunded_at: null } : {};
  const { earns, base } = await transactionEarns(trx, c.id, e.transactionId);
  const missing = base ? toRestore(amountsOf(base), standing(earns)) : undefined;
  if (!base || !missing || isZero(missing)) return { conversion: c, error: null, patch };
  // A person voided this purchase's commission after review: undoing the refund does not earn it again. Else the
  // share restored is reviewed as what stands of it is (a live earn under review), or as the purchase's earn was.
  if (earns.some((x) => x.review_state === 'voided')) return { conversion: c, error: null, patch };
  const reviewFrom = earns.find((x) => x.reversed_at === null && x.review_state !== null) ?? base;
  const { holding_period_days: holdingDays } = await findCampaignTerms(trx, base.campaign_id);
  const { funded, walletLow } = await earnAgain(trx, base, missing, ev.id, holdingDays * dayMsOf(deps), undefined, reviewFrom);
  if (base.environment === 'PRODUCTION') {
    await awardReachedMilestones(trx, { campaignId: base.campaign_id, creatorId: base.creator_id });
  }
  return { conversion: c, error: funded ? null : INSUFFICIENT_FUNDS, patch, ...(walletLow ? { walletLowOrgId: base.org_id } : {}) };
}

const unknownTransaction = (what: string, transactionId: string | null) =>
  `${what} of transaction ${transactionId ?? '(none)'} matches no purchase of this subscription: nothing was reversed or restored`;

async function finish(
  trx: Knex.Transaction,
  deps: ApplyDeps,
  ingest: IngestEvent,
  ev: PurchaseEventRow,
  step: Step,
  status: 'processed' | 'error',
): Promise<IngestResult> {
  const c = step.conversion;
  const outcome = {
    status,
    error: step.error,
    conversionId: c?.id ?? null,
    attributed: c?.attributed ?? false,
    organic: c ? !c.attributed : false,
    referralCode: c?.referral_code ?? ev.referral_code,
  };
  // One statement: the conversion's changes and latest event, the outcome, the inbox row delivered, and the next
  // release (the commission this event earned is already written).
  const ctes = [inboxDeliveredCte(ingest.appId, ingest.idempotencyKey, ev.id)];
  let columns = [noConversionColumns(trx)];
  if (c) {
    const update = conversionUpdateCte(
      trx,
      c.id,
      { ...step.patch, ...lastEvent(ingest.event.type, nowOf(trx, ingest)) },
      'conversion_status',
    );
    ctes.push(update.cte);
    columns = [nextReleaseAtColumn(trx, c.id, dayMsOf(deps), 'next_release_at'), update.status];
  }
  if (step.milestonesToCheck) columns.push(activeBonusRulesColumn(trx, step.milestonesToCheck.campaignId, 'milestones_due'));
  const marked = await markPurchaseEventReturning<{
    next_release_at: string | null;
    conversion_status: string | null;
    milestones_due?: boolean;
  }>(trx, ev.id, outcome, columns, ctes);
  if (step.milestonesToCheck && marked?.milestones_due) await awardReachedMilestones(trx, step.milestonesToCheck);
  return {
    eventId: ev.id,
    error: step.error,
    duplicate: false,
    conversionId: c?.id ?? null,
    status: marked?.conversion_status ?? null,
    referralCode: c?.referral_code ?? null,
    nextReleaseAt: c ? releaseAtOf(marked?.next_release_at) : null,
    inboxDelivered: true,
  };
}

async function answerRedelivery(trx: Knex.Transaction, deps: ApplyDeps, ev: PurchaseEventRow): Promise<IngestResult> {
  const c = ev.conversion_id ? await findConversion(trx, ev.conversion_id) : undefined;
  return {
    eventId: ev.id,
    error: ev.error,
    duplicate: true,
    conversionId: ev.conversion_id,
    status: c?.status ?? null,
    referralCode: c?.referral_code ?? ev.referral_code,
    nextReleaseAt: c ? await nextReleaseAt(trx, c.id, dayMsOf(deps)) : null,
  };
}
