// GET /dashboard, the organization's home: its key figures over 7, 30 or 90 days (overview.tsx), its apps (each
// linking to its setup page) and the form that creates an app (POST /api/apps, whose answer shows the new webhook
// secret and purchase API key once).
import { EmptyState } from '../../view-kit/visual.js';
import { listAppsInOrgs } from '../../../db/apps.js';
import type { AppContext } from '../../context.js';
import type { FieldProblem } from '../../../errors/http-errors.js';
import { slugProblem } from '../../../lib/slugs.js';
import { SAID, type FormWords } from '../../view-kit/form-errors.js';
import { dashboardPage, Hidden, OrgLink, orgLink, PostForm, stateFor, Table } from '../../view-kit/layout.js';
import { signedIn } from '../signed-in.js';
import { Field } from '../../view-kit/ui.js';
import { overviewSection } from './overview.js';

/** The create-app form's words (its labels, and its rules where the schema's would not do), for its refusals too. */
export const CREATE_APP_WORDS = {
  labels: {
    name: 'App name',
    slug: 'Slug for referral links (optional)',
    ios_store_url: 'App Store URL (optional)',
    android_store_url: 'Google Play URL (optional)',
  },
  rules: {
    name: 'Give the app a name of up to 200 characters.',
    slug: `Use up to 63 lowercase letters, digits, "-" or "_", starting with a letter or digit (empty: made from the name).`,
    ios_store_url: 'Enter the app’s App Store address, starting with https://',
    android_store_url: 'Enter the app’s Google Play address, starting with https://',
  },
  conflict: 'slug',
} satisfies FormWords;
const L = CREATE_APP_WORDS.labels;
const R = CREATE_APP_WORDS.rules;

/** The slug rule said before the schema runs, so a bad slug is listed with every other problem of the form. */
export function createAppChecks(body: Record<string, unknown>): FieldProblem[] {
  const slug = body.slug;
  if (typeof slug !== 'string' || slug === '') return [];
  const problem = slugProblem(slug);
  if (!problem) return [];
  const msg = problem === 'reserved' ? `"${slug}" is reserved: pick another slug.` : R.slug;
  return [{ loc: ['body', 'slug'], msg, type: SAID }];
}

export async function home(ctx: AppContext): Promise<void> {
  const s = await signedIn(ctx);
  if (!s) return;
  const state = stateFor(s, 'new-app');
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
      <PostForm s={s} action="/api/apps" returnTo={orgLink(s, '/dashboard')} formId="new-app">
        {s.orgId ? <Hidden fields={{ org_id: s.orgId }} /> : null}
        <Field id="app-name" name="name" label={L.name} required maxlength={200} state={state} />
        <Field id="app-slug" name="slug" label={L.slug} hint={R.slug} maxlength={63} state={state} />
        <Field id="app-ios" name="ios_store_url" label={L.ios_store_url} hint={R.ios_store_url} type="url" state={state} />
        <Field id="app-android" name="android_store_url" label={L.android_store_url} hint={R.android_store_url} type="url" state={state} />
        <button type="submit">Create app</button>
      </PostForm>
    </>,
  );
}
