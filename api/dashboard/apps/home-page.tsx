// GET /dashboard, the organization's home: its key figures over 7, 30 or 90 days (overview.tsx), its apps (each
// linking to its setup page) and the form that creates an app (POST /api/apps, whose answer shows the new webhook
// secret and purchase API key once).
import { EmptyState } from '../../view-kit/visual.js';
import { listAppsInOrgs } from '../../../db/apps.js';
import type { AppContext } from '../../context.js';
import { dashboardPage, Hidden, OrgLink, orgLink, PostForm, signedIn, Table } from '../../view-kit/layout.js';
import { overviewSection } from './overview.js';

export async function home(ctx: AppContext): Promise<void> {
  const s = await signedIn(ctx);
  if (!s) return;
  const apps = s.orgId ? await listAppsInOrgs(ctx.deps.db, [s.orgId]) : [];
  const overview = s.orgId ? await overviewSection(ctx, s, s.orgId) : null;
  dashboardPage(
    ctx,
    s,
    200,
    'Overview',
    <>
      {overview}
      <h2>Apps</h2>
      {apps.length === 0 ? (
        <EmptyState id="no-apps" title="No app yet.">
          Create your first one with the form below: its setup page then walks you through the SDK and the first test purchase.
        </EmptyState>
      ) : (
        <Table columns={['App', 'Slug', 'SDK']}>
          {apps.map((a) => (
            <tr>
              <td>
                <OrgLink s={s} to={`/dashboard/apps/${a.id}`}>
                  {String(a.name)}
                </OrgLink>
              </td>
              <td>
                <code>{String(a.slug)}</code>
              </td>
              <td>{a.sdk_initialized_at ? 'SDK seen' : 'SDK not initialized yet'}</td>
            </tr>
          ))}
        </Table>
      )}
      <h2>Create an app</h2>
      <PostForm s={s} action="/api/apps" returnTo={orgLink(s, '/dashboard')}>
        {s.orgId ? <Hidden fields={{ org_id: s.orgId }} /> : null}
        <label for="app-name">App name</label>
        <input id="app-name" name="name" required maxlength={200} />
        <label for="app-slug">Slug for referral links (optional)</label>
        <input id="app-slug" name="slug" maxlength={63} pattern="[a-z0-9][a-z0-9_-]*" />
        <label for="app-ios">App Store URL (optional)</label>
        <input id="app-ios" name="ios_store_url" type="url" />
        <label for="app-android">Google Play URL (optional)</label>
        <input id="app-android" name="android_store_url" type="url" />
        <button type="submit">Create app</button>
      </PostForm>
    </>,
  );
}
