// Organizations, dashboard users and memberships; an organization's billing settings (per-org overrides of the
// service defaults) and what its invite capacity has used: pending invitations hold marketplace slots, emails queued
// today (UTC) spend the daily email budget.
import type { Knex } from 'knex';

export async function findOrganization(db: Knex, orgId: string): Promise<{ id: string; name: string } | undefined> {
  return db('organizations').where('id', orgId).first<{ id: string; name: string } | undefined>('id', 'name');
}

export interface OrgOverview {
  id: string;
  name: string;
}

export async function listOrganizations(db: Knex, orgIds: readonly string[]): Promise<OrgOverview[]> {
  if (orgIds.length === 0) return [];
  return db('organizations').whereIn('id', orgIds).orderBy('created_at').select<OrgOverview[]>('id', 'name');
}

export interface OrgBillingSettings {
  min_escrow_micros: number | null;
  marketplace_slots: number | null;
  daily_email_budget: number | null;
  auto_recharge_enabled: boolean;
}

export async function findOrgBillingSettings(db: Knex, orgId: string): Promise<OrgBillingSettings | undefined> {
  return db('organizations')
    .where('id', orgId)
    .first<OrgBillingSettings | undefined>('min_escrow_micros', 'marketplace_slots', 'daily_email_budget', 'auto_recharge_enabled');
}

export interface InviteUsage {
  pendingInvitations: number;
  emailsSentToday: number;
}

export async function getInviteUsage(db: Knex, orgId: string): Promise<InviteUsage> {
  const result = await db.raw<{ rows: { pending: number; emails: number }[] }>(
    `
    select (select count(*) from invitations where org_id = :orgId and status = 'PENDING')::int as pending,
           (select count(*) from email_outbox where org_id = :orgId
              and created_at >= date_trunc('day', now() at time zone 'utc') at time zone 'utc')::int as emails`,
    { orgId },
  );
  const row = result.rows[0];
  return { pendingInvitations: row?.pending ?? 0, emailsSentToday: row?.emails ?? 0 };
}
