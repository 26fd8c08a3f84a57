// Pages about one app of the organization (free-access codes, assets) pick it with `?app=` (default: the first app)
// and show a small picker when the organization has several.
import { LocalTime } from '../../view-kit/ui.js';
import type { VNode } from 'preact';
import { listAppsInOrgs, type AgentAppRow } from '../../../db/apps.js';
import type { AppContext } from '../../context.js';
import { Hidden, type SignedIn } from '../../view-kit/layout.js';

export interface PickedApp {
  app: AgentAppRow | undefined;
  picker: VNode | null;
}

export async function pickApp(ctx: AppContext, s: SignedIn): Promise<PickedApp> {
  const apps = s.orgId ? await listAppsInOrgs(ctx.deps.db, [s.orgId]) : [];
  const wanted = typeof ctx.query.app === 'string' ? ctx.query.app : undefined;
  const app = apps.find((a) => a.id === wanted) ?? apps[0];
  const picker =
    apps.length > 1 ? (
      <form method="get" action={ctx.path}>
        {s.orgIds.length > 1 && s.orgId ? <Hidden fields={{ org: s.orgId }} /> : null}
        <label for="app-pick">App</label>{' '}
        <select id="app-pick" name="app">
          {apps.map((a) => (
            <option value={a.id} selected={a.id === app?.id}>
              {String(a.name)}
            </option>
          ))}
        </select>{' '}
        <button type="submit">Show</button>
      </form>
    ) : null;
  return { app, picker };
}

/** An instant in the pages' one date format (api/view-kit/ui.tsx LocalTime: UTC from the server, the viewer's zone in the browser). */
export const when = (d: unknown, empty = '') => <LocalTime at={d as string | Date | null | undefined} empty={empty} />;
