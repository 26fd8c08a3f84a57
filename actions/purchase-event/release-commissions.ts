// The conversion workflow's release step (its releaseDueCommissions activity): the conversion's reserved commissions
// past their holding period become payable, under the conversion's row lock (db/commission-holding.ts).
import type { Knex } from 'knex';
import { nextReleaseAt } from '../../db/commission-holding.js';
import { releaseDueCommissions as releaseDue } from '../../db/commission-holding-writes.js';
import { findConversionForUpdate } from '../../db/conversions-writes.js';
import type { ReleaseTarget } from '../../workflows/conversion-messages.js';
import { dayMsOf, type EarnDeps } from './earn.js';

/** Answers when the workflow must release next (epoch ms), or null when nothing waits. */
export async function releaseDueCommissions(
  deps: EarnDeps & { db: Knex },
  { appId, conversionKey }: ReleaseTarget,
): Promise<number | null> {
  return deps.db.transaction(async (trx) => {
    const conversion = await findConversionForUpdate(trx, appId, conversionKey);
    if (!conversion) return null;
    await releaseDue(trx, conversion.id);
    return nextReleaseAt(trx, conversion.id, dayMsOf(deps));
  });
}
