// The conversion workflow's release step (its releaseDueCommissions activity): the conversion's reserved commissions
// past their holding period become payable, under the conversion's row lock (db/commission-holding.ts). Before
// that, their fraud signals are evaluated once more (docs/fraud-signals.md: refunds known by now count): one that
// now holds stays reserved for a person to decide, and the release skips it. All within the one activity: the
// workflow issues no new command for it.
import type { Knex } from 'knex';
import { dueForSignalCheck, nextReleaseAt } from '../../db/commission-holding.js';
import { releaseDueCommissions as releaseDue } from '../../db/commission-holding-writes.js';
import { raiseReviewBeforeRelease } from '../../db/commission-reviews-writes.js';
import { findConversionForUpdate } from '../../db/conversions-writes.js';
import type { ConversionRow } from '../../schema/types.js';
import type { ReleaseTarget } from '../../workflows/conversion-messages.js';
import { dayMsOf, type EarnDeps } from './earn.js';
import { reviewOfPurchase } from './signals.js';

/** Answers when the workflow must release next (epoch ms), or null when nothing waits. */
export async function releaseDueCommissions(
  deps: EarnDeps & { db: Knex },
  { appId, conversionKey }: ReleaseTarget,
): Promise<number | null> {
  return deps.db.transaction(async (trx) => {
    const conversion = await findConversionForUpdate(trx, appId, conversionKey);
    if (!conversion) return null;
    await checkSignalsAgain(trx, conversion);
    await releaseDue(trx, conversion.id);
    return nextReleaseAt(trx, conversion.id, dayMsOf(deps));
  });
}

async function checkSignalsAgain(trx: Knex.Transaction, conversion: ConversionRow): Promise<void> {
  for (const { fraud_signal_actions: settings, ...commission } of await dueForSignalCheck(trx, conversion.id)) {
    const decision = await reviewOfPurchase(trx, {
      appId: commission.app_id,
      appUserId: conversion.app_user_id,
      creatorId: commission.creator_id,
      creatorCodeId: commission.creator_code_id,
      at: new Date(),
      providerEmail: null,
      settings,
    });
    if (decision) await raiseReviewBeforeRelease(trx, commission, decision);
  }
}
