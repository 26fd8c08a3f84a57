// GET /api/agent/apps and GET /api/agent/apps/{app_id}. Never a secret: only the public SDK key is shown.
import { findApp, listAppsInOrgs, type AgentAppRow } from '../../db/apps.js';
import type { AppContext } from '../context.js';
import { appI18nView } from './localize.js';
import { orgIdsOf, visibleTo } from './principal.js';

/** Spec "App": the creator-code settings object, with its one setting's default spelled out. */
function creatorCodeSettingsView(settings: unknown) {
  return { mirror_free_access_to_subprovider: (settings as Record<string, unknown> | null)?.mirror_free_access_to_subprovider === true };
}

/** The maps as stored (locale to text) beside `i18n`, which tells each locale's freshness. */
export function appView(ctx: AppContext, a: AgentAppRow) {
  const { i18n_meta: _m, ...rest } = a;
  return {
    app_id: a.id,
    ...rest,
    id: undefined,
    webhook_url: `${ctx.deps.config.BASE_URL}/api/webhooks/subprovider/${a.id}`,
    creator_code_settings: creatorCodeSettingsView(a.creator_code_settings),
    i18n: appI18nView(a),
  };
}

export async function listAppsHandler(ctx: AppContext): Promise<void> {
  const apps = await listAppsInOrgs(ctx.deps.db, orgIdsOf(ctx));
  ctx.body = { apps: apps.map((a) => appView(ctx, a)), count: apps.length };
}

export async function getAppHandler(ctx: AppContext): Promise<void> {
  ctx.body = appView(ctx, visibleTo(ctx, await findApp(ctx.deps.db, ctx.params.app_id as string), 'App'));
}
