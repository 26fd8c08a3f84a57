// The apps and campaigns an agent may see: always filtered by the organizations its credential was granted.
import type { Knex } from 'knex';

const APP_COLUMNS = [
  'id', 'org_id', 'name', 'slug', 'description', 'tagline', 'support_email', 'sdk_key', 'attribution_window_hours',
  'ios_validation_provider', 'android_validation_provider', 'ios_store_url', 'android_store_url', 'web_url',
  'webhook_connected_at', 'sdk_initialized_at', 'created_at', 'updated_at', 'name_i18n', 'description_i18n', 'tagline_i18n', 'i18n_meta',
] as const;

export type AgentAppRow = Record<(typeof APP_COLUMNS)[number], unknown> & { id: string; org_id: string };

export async function listAppsInOrgs(db: Knex, orgIds: readonly string[]): Promise<AgentAppRow[]> {
  if (orgIds.length === 0) return [];
  return db('apps').whereIn('org_id', orgIds).orderBy('created_at').select<AgentAppRow[]>(APP_COLUMNS);
}

export async function findApp(db: Knex, appId: string): Promise<AgentAppRow | undefined> {
  return db('apps').where('id', appId).first<AgentAppRow | undefined>(APP_COLUMNS);
}

const CAMPAIGN_COLUMNS = [
  'id', 'app_id', 'org_id', 'name', 'description', 'campaign_type', 'status', 'commission_percentage', 'activated_at',
  'paused_at', 'created_at', 'updated_at', 'i18n',
] as const;

export type AgentCampaignRow = Record<(typeof CAMPAIGN_COLUMNS)[number], unknown> & { id: string; org_id: string; commission_percentage: string };

export async function listCampaignsInOrgs(db: Knex, orgIds: readonly string[], filter: { appId?: string; status?: string } = {}): Promise<AgentCampaignRow[]> {
  if (orgIds.length === 0) return [];
  const q = db('campaigns').whereIn('org_id', orgIds).orderBy('created_at');
  if (filter.appId) void q.where('app_id', filter.appId);
  if (filter.status) void q.where('status', filter.status);
  return q.select<AgentCampaignRow[]>(CAMPAIGN_COLUMNS);
}

export async function findCampaign(db: Knex, campaignId: string): Promise<AgentCampaignRow | undefined> {
  return db('campaigns').where('id', campaignId).first<AgentCampaignRow | undefined>(CAMPAIGN_COLUMNS);
}
