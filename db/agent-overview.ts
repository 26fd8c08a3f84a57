// What an agent credential can see of its organizations (whoami, doctor).
import type { Knex } from 'knex';

export interface OrgOverview { id: string; name: string }
export interface AppInitFreshness { app_id: string; name: string; org_id: string; sdk_initialized_at: Date | null; sdk_init_meta: Record<string, { sdk_name?: string; sdk_version?: string; app_version?: string; at?: string }> }

export async function listOrganizations(db: Knex, orgIds: readonly string[]): Promise<OrgOverview[]> {
  if (orgIds.length === 0) return [];
  return db('organizations').whereIn('id', orgIds).orderBy('created_at').select<OrgOverview[]>('id', 'name');
}

export async function listAppInitFreshness(db: Knex, orgIds: readonly string[]): Promise<AppInitFreshness[]> {
  if (orgIds.length === 0) return [];
  return db('apps').whereIn('org_id', orgIds).orderBy('created_at')
    .select<AppInitFreshness[]>('id as app_id', 'name', 'org_id', 'sdk_initialized_at', 'sdk_init_meta');
}
