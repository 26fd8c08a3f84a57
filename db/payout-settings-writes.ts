// An organization's payout settings stored (db/payout-settings.ts says what they are); run by
// actions/payout-settings.ts.
import type { Knex } from 'knex';
import type { PayoutSettings } from './payout-settings.js';

export async function setPayoutSettings(db: Knex, orgId: string, settings: PayoutSettings, updatedBy: string): Promise<void> {
  await db('payout_settings')
    .insert({
      org_id: orgId,
      minimum_payout_micros: settings.minimumPayoutMicros,
      period_hours: settings.periodHours,
      updated_by: updatedBy,
      updated_at: db.fn.now(),
    })
    .onConflict('org_id')
    .merge();
}
