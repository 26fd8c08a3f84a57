// An owner saves the organization's payout settings on the wallet page (api/dashboard/wallet/wallet-payout-settings.tsx
// validates the form): the settings are stored, the Temporal schedule is brought in line at once (the stored period
// is the truth: a schedule Temporal could not take now is reconciled at the next worker start, `pending`), and the
// change is audited with the schedule's outcome.
import type { Knex } from 'knex';
import { auditDashboardAction, type DashboardActor } from './dashboard-actor.js';
import type { PayoutSettings } from '../db/payout-settings.js';
import { setPayoutSettings } from '../db/payout-settings-writes.js';

export interface PayoutSettingsDeps {
  db: Knex;
  /** workflow-clients/payout-runs.ts reconcilePayoutSchedule for this organization. */
  reconcileSchedule: (orgId: string) => Promise<string>;
}

export async function savePayoutSettings(
  deps: PayoutSettingsDeps,
  input: { orgId: string; settings: PayoutSettings; by: DashboardActor & { email: string } },
): Promise<{ schedule: string }> {
  const { orgId, settings, by } = input;
  await setPayoutSettings(deps.db, orgId, settings, `user:${by.email}`);
  const schedule = await deps.reconcileSchedule(orgId).catch(() => 'pending');
  await auditDashboardAction(deps.db, by, {
    orgId,
    action: 'dashboard.payout_settings',
    targetType: 'organization',
    targetId: orgId,
    details: { minimum_payout_micros: settings.minimumPayoutMicros, period_hours: settings.periodHours, schedule },
  });
  return { schedule };
}
