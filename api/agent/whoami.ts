// GET /api/agent/whoami and GET /api/agent/doctor: no scope needed (spec "Authentication" 7).
import { listAppInitFreshness } from '../../db/apps.js';
import { listOrganizations } from '../../db/organizations.js';
import { HARD_DENIED, SCOPES } from '../../lib/scopes.js';
import type { AppContext } from '../context.js';
import { agentOf } from './principal.js';

/** An SDK that initialized within a day counts as fresh (apps are launched daily by someone). */
export const FRESH_SECONDS = 24 * 3600;

async function identity(ctx: AppContext) {
  const agent = agentOf(ctx);
  return {
    auth_mode: agent.authMode,
    // For OAuth the id is the grant's; client_id is the OAuth client (a registered id or a metadata document URL).
    principal: {
      type: agent.authMode,
      id: agent.id,
      user_id: agent.userId ?? null,
      ...(agent.clientId ? { client_id: agent.clientId } : {}),
    },
    scopes: agent.scopes,
    missing_scopes: SCOPES.filter((s) => !agent.scopes.includes(s)),
    hard_denied: HARD_DENIED,
    organizations: await listOrganizations(ctx.deps.db, agent.orgIds),
  };
}

export async function whoami(ctx: AppContext): Promise<void> {
  ctx.body = await identity(ctx);
}

export async function doctor(ctx: AppContext): Promise<void> {
  const base = await identity(ctx);
  const now = Date.now();
  const apps = (await listAppInitFreshness(ctx.deps.db, agentOf(ctx).orgIds)).map((a) => {
    const age = a.sdk_initialized_at ? Math.round((now - new Date(a.sdk_initialized_at).getTime()) / 1000) : null;
    return {
      app_id: a.app_id,
      name: a.name,
      org_id: a.org_id,
      sdk_initialized_at: a.sdk_initialized_at,
      sdk_init_age_seconds: age,
      sdk_init_fresh: age !== null && age <= FRESH_SECONDS,
      platforms: a.sdk_init_meta,
    };
  });
  const problems = [
    ...(base.missing_scopes.length > 0 ? [`This credential lacks: ${base.missing_scopes.join(', ')}.`] : []),
    ...apps
      .filter((a) => a.sdk_init_age_seconds === null)
      .map((a) => `App ${a.app_id}: the SDK never called init (is the SDK key right?).`),
    ...apps
      .filter((a) => a.sdk_init_age_seconds !== null && !a.sdk_init_fresh)
      .map((a) => `App ${a.app_id}: no SDK init in the last 24 hours.`),
  ];
  ctx.body = { ...base, app_count: apps.length, apps, problems, ok: problems.length === 0 };
}
