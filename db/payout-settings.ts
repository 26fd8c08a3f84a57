// An organization's payout settings (payout_settings, migration 0037): the minimum payout, under which a creator's
// net is held over to a later run, and the period of its payout schedule (null: on demand only). Owners set them on
// the wallet page (actions/payout-settings.ts, the write: db/payout-settings-writes.ts); the worker reconciles the
// Temporal schedules from them at start (workflow-clients/payout-runs.ts).
import type { Knex } from 'knex';
import type { PayoutSettingsRow } from '../schema/types.js';

export interface PayoutSettings {
  minimumPayoutMicros: number;
  periodHours: number | null;
}

export async function getPayoutSettings(db: Knex, orgId: string): Promise<PayoutSettings> {
  const row = await db('payout_settings').where('org_id', orgId).first<PayoutSettingsRow | undefined>();
  return { minimumPayoutMicros: Number(row?.minimum_payout_micros ?? 0), periodHours: row?.period_hours ?? null };
}

export async function minimumPayoutMicros(db: Knex, orgId: string): Promise<number> {
  return (await getPayoutSettings(db, orgId)).minimumPayoutMicros;
}

/** Every organization with a payout schedule: what the worker reconciles at start. */
export async function scheduledPayoutOrgs(db: Knex): Promise<{ orgId: string; periodHours: number }[]> {
  const rows = await db('payout_settings')
    .whereNotNull('period_hours')
    .orderBy('org_id')
    .select<{ org_id: string; period_hours: number }[]>('org_id', 'period_hours');
  return rows.map((r) => ({ orgId: r.org_id, periodHours: r.period_hours }));
}
