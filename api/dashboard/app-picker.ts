// Pages about one app of the organization (free-access codes, assets) pick it with `?app=` (default: the first app)
// and show a small picker when the organization has several.
import { listAppsInOrgs, type AgentAppRow } from '../../db/apps.js';
import { escapeHtml } from '../../lib/html.js';
import type { AppContext } from '../context.js';
import type { SignedIn } from './layout.js';

export interface PickedApp { app: AgentAppRow | undefined; picker: string }

export async function pickApp(ctx: AppContext, s: SignedIn): Promise<PickedApp> {
  const apps = s.orgId ? await listAppsInOrgs(ctx.deps.db, [s.orgId]) : [];
  const wanted = typeof ctx.query.app === 'string' ? ctx.query.app : undefined;
  const app = apps.find((a) => a.id === wanted) ?? apps[0];
  const picker = apps.length > 1
    ? `<form method="get" action="${escapeHtml(ctx.path)}">${s.orgIds.length > 1 && s.orgId ? `<input type="hidden" name="org" value="${escapeHtml(s.orgId)}">` : ''}<label for="app-pick">App</label> <select id="app-pick" name="app">${apps.map((a) => `<option value="${escapeHtml(a.id)}"${a.id === app?.id ? ' selected' : ''}>${escapeHtml(String(a.name))}</option>`).join('')}</select> <button type="submit">Show</button></form>`
    : '';
  return { app, picker };
}

export const when = (d: unknown): string => (d ? new Date(d as string).toISOString().replace('T', ' ').slice(0, 16) : '');
