// GET /api/agent/apps and GET /api/agent/apps/{app_id}. Never a secret: only the public SDK key is shown.
import { findApp, listAppsInOrgs, type AgentAppRow } from '../../db/apps.js';
import type { AppContext } from '../context.js';
import { appI18nView } from './localize.js';
import { orgIdsOf, visibleTo } from './principal.js';

export function appView(ctx: AppContext, a: AgentAppRow) {
  const { name_i18n: _n, description_i18n: _d, tagline_i18n: _t, i18n_meta: _m, ...rest } = a;
  return {
    app_id: a.id, ...rest, id: undefined, webhook_url: `${ctx.deps.config.BASE_URL}/api/webhooks/subprovider/${a.id}`,
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
