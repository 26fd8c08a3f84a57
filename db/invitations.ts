// Creator invitations (schema 0003) for the agent API: creating one (capacity checked under the organization's row
// lock, its email queued in the same transaction), withdrawing one, listing them, and a campaign's affiliates.
// Pending invitations past expires_at are marked EXPIRED before any capacity count, so they stop holding slots.
import type { Knex } from 'knex';
import { pageOf, type TableWindow } from './table-page.js';
import type { TablePage, TableSpec, TableView } from '../lib/table-query.js';
import type { PayoutProviderName } from '../schema/types.js';

export const INVITATION_STATUSES = ['PENDING', 'ACCEPTED', 'WITHDRAWN', 'EXPIRED'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

/** What the agent sees of an invitation: never the token or its hash. */
export const VIEW_COLUMNS = [
  'id',
  'campaign_id',
  'org_id',
  'email',
  'name',
  'message',
  'lang',
  'status',
  'expires_at',
  'withdrawn_at',
  'accepted_at',
  'creator_id',
  'invited_by',
  'created_at',
  'updated_at',
] as const;
export type InvitationView = Record<(typeof VIEW_COLUMNS)[number], unknown> & { id: string; org_id: string; status: InvitationStatus };

/** Lazy expiry: the listings below and db/invitations-writes.ts mark pending invitations past expires_at first. */
export async function expireStaleInvitations(db: Knex, orgIds: readonly string[]): Promise<void> {
  if (orgIds.length === 0) return;
  await db('invitations')
    .whereIn('org_id', orgIds)
    .where('status', 'PENDING')
    .where('expires_at', '<=', db.fn.now())
    .update({ status: 'EXPIRED' });
}

export interface InviteCapacity {
  slots: number;
  emails: number;
}

export interface NewInvitation {
  orgId: string;
  campaignId: string;
  email: string;
  name: string | null;
  message: string | null;
  lang: string | null;
  tokenHash: string;
  expiresAt: Date;
  invitedBy: string;
  /** The email to queue, built once the invitation id is known (the join URL carries the plain token). */
  email_: (invitationId: string) => { subject: string; bodyText: string; templateData: Record<string, unknown> };
}

export type InviteOutcome =
  | { ok: true; invitation: InvitationView }
  | { ok: false; reason: 'no_slots' | 'no_email_budget' | 'duplicate_pending' | 'already_member'; detail: string };

export async function findInvitation(db: Knex, id: string): Promise<InvitationView | undefined> {
  return db('invitations').where('id', id).first<InvitationView | undefined>(VIEW_COLUMNS);
}

interface InvitationFilter {
  status?: InvitationStatus;
  campaignId?: string;
}

/** The organizations' invitations (the agent's list and the dashboard's table read the same rows). */
function invitationsQuery(db: Knex, orgIds: readonly string[], filter: InvitationFilter): Knex.QueryBuilder {
  const q = db('invitations').whereIn('org_id', orgIds);
  if (filter.status) void q.where('status', filter.status);
  if (filter.campaignId) void q.where('campaign_id', filter.campaignId);
  return q;
}

export async function listInvitations(
  db: Knex,
  orgIds: readonly string[],
  filter: InvitationFilter & { limit: number },
): Promise<InvitationView[]> {
  if (orgIds.length === 0) return [];
  await expireStaleInvitations(db, orgIds);
  return invitationsQuery(db, orgIds, filter)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(filter.limit)
    .select<InvitationView[]>(VIEW_COLUMNS);
}

/** An invitation row of the dashboard's table: the agent's view plus its campaign's name. */
export type InvitationTableRow = InvitationView & { campaign_name: string };

export const INVITATION_TABLE: TableSpec = {
  sortable: ['email', 'name', 'campaign_name', 'status', 'created_at', 'expires_at'],
  searchable: ['email', 'name', 'campaign_name', 'status'],
  defaultSort: 'created_at',
  defaultDir: 'desc',
  key: 'id',
};

/** The dashboard's invitations table: the same rows as listInvitations, searched, sorted and cut to `window`. */
export async function pageInvitations(
  db: Knex,
  orgIds: readonly string[],
  filter: InvitationFilter,
  view: TableView,
  window: TableWindow,
): Promise<TablePage<InvitationTableRow>> {
  if (orgIds.length === 0) return { rows: [], total: 0 };
  await expireStaleInvitations(db, orgIds);
  const base = invitationsQuery(db, orgIds, filter)
    .select(VIEW_COLUMNS.map((c) => `invitations.${c}`))
    .select(db('campaigns').whereRaw('campaigns.id = invitations.campaign_id').select('name').as('campaign_name'));
  return pageOf<InvitationTableRow>(db, base, INVITATION_TABLE, view, window);
}

export interface AffiliateRow {
  creator_id: string;
  name: string;
  social_handle: string | null;
  follower_count: number | null;
  code: string;
  status: string;
  source: string;
  joined_at: Date;
  clicks: number;
  installs: number;
  production_conversions: number;
}

/** The counts of a creator code (the `cc` of the statement): conversions are production, attributed, non-test ones. */
const AFFILIATE_COUNTS = `(select count(*) from clicks k where k.creator_code_id = cc.id)::int as clicks,
  (select count(*) from installs i where i.creator_code_id = cc.id and i.attributed)::int as installs,
  (select count(*) from conversions v where v.creator_code_id = cc.id and v.attributed
     and v.environment = 'PRODUCTION' and not v.is_test)::int as production_conversions`;

/** Creator codes with their creator and counts: the rows of a campaign's affiliates (agent) and of the creators table. */
function affiliatesQuery(db: Knex): Knex.QueryBuilder {
  return db('creator_codes as cc')
    .join('creators as c', 'c.id', 'cc.creator_id')
    .select(
      'c.id as creator_id',
      'c.name',
      'c.social_handle',
      'c.follower_count',
      'cc.code',
      'cc.status',
      'cc.source',
      'cc.joined_at',
      db.raw(AFFILIATE_COUNTS),
    );
}

/** Creators of a campaign with their code and counts. */
export async function listCampaignAffiliates(db: Knex, campaignId: string): Promise<AffiliateRow[]> {
  return affiliatesQuery(db)
    .where('cc.campaign_id', campaignId)
    .orderBy([{ column: 'cc.joined_at' }, { column: 'cc.id' }]);
}

/** A row of the dashboard's creators table: an affiliate row with its campaign and production money (net of reversals). */
export interface OrgAffiliateRow extends AffiliateRow {
  creator_code_id: string;
  /** The creator's payout account (payout_accounts, one per person) as last reported; all null without one. */
  payout_provider: PayoutProviderName | null;
  payout_transfers_active: boolean | null;
  payout_payouts_enabled: boolean | null;
  payout_requirements_due: string[] | null;
  payout_disabled_reason: string | null;
  email: string | null;
  campaign_id: string;
  campaign_name: string;
  revenue_micros: number;
  commission_micros: number;
}

export const CREATOR_TABLE: TableSpec = {
  sortable: [
    'name',
    'email',
    'campaign_name',
    'code',
    'status',
    'joined_at',
    'clicks',
    'installs',
    'production_conversions',
    'revenue_micros',
    'commission_micros',
  ],
  searchable: ['name', 'email', 'social_handle', 'code', 'campaign_name'],
  defaultSort: 'joined_at',
  defaultDir: 'desc',
  key: 'creator_code_id',
};

/** Every creator code in the organization's campaigns (FREE_ACCESS aside; or one creator's), searched, sorted and cut to `window`. */
export async function pageOrgAffiliates(
  db: Knex,
  orgId: string,
  view: TableView,
  window: TableWindow,
  filter: { creatorId?: string } = {},
): Promise<TablePage<OrgAffiliateRow>> {
  const base = affiliatesQuery(db)
    .join('campaigns as ca', 'ca.id', 'cc.campaign_id')
    .leftJoin('payout_accounts as pa', 'pa.creator_id', 'cc.creator_id')
    .where('ca.org_id', orgId)
    .whereNot('ca.campaign_type', 'FREE_ACCESS')
    .select(
      'cc.id as creator_code_id',
      'pa.provider as payout_provider',
      'pa.transfers_active as payout_transfers_active',
      'pa.payouts_enabled as payout_payouts_enabled',
      'pa.requirements_due as payout_requirements_due',
      'pa.disabled_reason as payout_disabled_reason',
      'c.email',
      'ca.id as campaign_id',
      'ca.name as campaign_name',
      db.raw(
        `
      (select coalesce(sum(m.revenue_usd_micros), 0) from commissions m where ` +
          `m.creator_code_id = cc.id and m.environment = 'PRODUCTION')::bigint as revenue_micros,
      (select coalesce(sum(m.commission_micros), 0) from commissions m where ` +
          `m.creator_code_id = cc.id and m.environment = 'PRODUCTION')::bigint as commission_micros`,
      ),
    );
  if (filter.creatorId) void base.where('cc.creator_id', filter.creatorId);
  return pageOf<OrgAffiliateRow>(db, base, CREATOR_TABLE, view, window);
}
