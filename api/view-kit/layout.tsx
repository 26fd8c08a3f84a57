// The signed-in dashboard's page shell: the product's name, the organization by name (`?org=` picks one of the
// user's organizations, default the first; a user in several switches here), who is signed in, the navigation,
// the session's CSRF token for every form, and one helper that renders a page. Who is signed in is read by
// api/dashboard/signed-in.tsx (pages without a session redirect to the sign-in page and come back); the kit only
// draws.
import type { ComponentChildren } from 'preact';
import { safeUrl } from './html.js';
import { Flash as FlashBox, ScrollTable, type ButtonKind, type FormState } from './ui.js';
import type { MembershipRole } from '../../schema/types.js';
import type { AppContext } from '../context.js';
import { sendPage } from '../send-page.js';
import type { Flash } from './flash.js';
import { ProblemSummary } from './form-errors.js';

export interface SignedIn {
  userId: string;
  email: string;
  orgIds: string[];
  orgId: string | undefined;
  /** The user's organizations with their names (oldest first), for the shell's name and switcher. */
  orgs: { id: string; name: string }[];
  role: MembershipRole | undefined;
  /** Commissions held for review in the organization (the navigation shows the count beside "Reviews"). */
  openHolds?: number;
  csrf: string;
  /** What the previous form post left for this page (GET only; flash.ts): its message, a failed form's state, a secret. */
  flash?: Flash;
}

/** What a failed post of the form `formId` left for it (its errors and typed values), if the last post was that form. */
export function stateFor(s: SignedIn, formId: string): FormState | undefined {
  const state = s.flash?.form;
  return state?.values?.form_id === formId ? state : undefined;
}

/** Owners and admins manage the organization (teammates, agent keys, money); members use the setup pages. */
export const canManage = (s: SignedIn): boolean => s.role === 'owner' || s.role === 'admin';

/** The session's CSRF token, in every form that posts (api/auth/csrf.ts checks it). */
export const CsrfField = ({ s }: { s: SignedIn }) => <input type="hidden" name="csrf" value={s.csrf} />;

/** Hidden fields, in order. */
export const Hidden = ({ fields }: { fields: Record<string, string | undefined> }) => (
  <>{Object.entries(fields).map(([name, value]) => (value === undefined ? null : <input type="hidden" name={name} value={value} />))}</>
);

interface PostFormProps {
  s: SignedIn;
  action: string;
  returnTo?: string;
  multipart?: boolean;
  formId?: string;
  id?: string;
  children: ComponentChildren;
}

/**
 * A form posting to the dashboard with the CSRF field (and `return_to` when the answer should come back here);
 * `formId` names it so a refused post's errors come back to this form (`stateFor`).
 */
export const PostForm = ({ s, action, returnTo, multipart, formId, id, children }: PostFormProps) => (
  <form method="post" action={action} id={id} enctype={multipart ? 'multipart/form-data' : undefined}>
    <CsrfField s={s} />
    <Hidden fields={{ return_to: returnTo, form_id: formId }} />
    {formId ? <ProblemSummary lines={stateFor(s, formId)?.lines ?? []} /> : null}
    {children}
  </form>
);

interface ButtonFormProps {
  s: SignedIn;
  action: string;
  label: string;
  returnTo?: string;
  fields?: Record<string, string>;
  kind?: ButtonKind;
}

/**
 * A one-button form (activate, feature, ...) posting to `action`, coming back to `returnTo`; destructive ones are confirm.tsx's
 * ConfirmForm.
 */
export const ButtonForm = ({ s, action, label, returnTo, fields = {}, kind = 'secondary' }: ButtonFormProps) => (
  <form method="post" action={action}>
    <CsrfField s={s} />
    <Hidden fields={{ return_to: returnTo, ...fields }} />
    <button type="submit" class={kind === 'primary' ? undefined : kind}>
      {label}
    </button>
  </form>
);

/** A campaign's Pause / Activate button (nothing for an archived one). */
export function CampaignStatusButton({
  s,
  campaign,
  returnTo,
}: {
  s: SignedIn;
  campaign: { id: string; status: unknown };
  returnTo: string;
}) {
  if (campaign.status === 'archived') return null;
  const next = campaign.status === 'active' ? 'paused' : 'active';
  return (
    <ButtonForm
      s={s}
      action={`/api/campaigns/${campaign.id}/status`}
      label={next === 'paused' ? 'Pause' : 'Activate'}
      returnTo={returnTo}
      fields={{ status: next }}
    />
  );
}

/**
 * A table with a header row of `columns` and the rows given as children, in its own horizontal scroller. A last
 * column without a name is the row's actions: it is named "Actions" for screen readers, stays the last and, on a
 * phone, stays in view beside the first column while the rest scrolls (visual-style.ts `.has-actions`).
 */
export const Table = ({
  id,
  columns,
  children,
  label,
}: {
  id?: string;
  columns: string[];
  children: ComponentChildren;
  label?: string;
}) => {
  const actions = columns.length > 1 && columns[columns.length - 1] === '';
  return (
    <ScrollTable label={label ?? (columns.filter(Boolean).join(', ') || 'Table')}>
      <table id={id} class={actions ? 'has-actions' : undefined}>
        <thead>
          <tr>
            {columns.map((c, i) =>
              actions && i === columns.length - 1 ? (
                <th>
                  <span class="visually-hidden">Actions</span>
                </th>
              ) : (
                <th>{c}</th>
              ),
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </ScrollTable>
  );
};

/** `/dashboard/x` with the current organization kept (when the user has several). */
export function orgLink(s: SignedIn, path: string): string {
  if (s.orgIds.length < 2 || !s.orgId) return path;
  return `${path}${path.includes('?') ? '&' : '?'}org=${encodeURIComponent(s.orgId)}`;
}

/** A link to one of our pages, keeping the organization. */
export const OrgLink = ({ s, to, children }: { s: SignedIn; to: string; children: ComponentChildren }) => (
  <a href={safeUrl(orgLink(s, to))}>{children}</a>
);

/** `formAction` widens the page's CSP form-action (a form whose answer redirects to Stripe Checkout). */
export interface PageExtras {
  scripts?: string[];
  formAction?: string;
}

/** Every dashboard page's script: confirm dialogs, copy buttons, local dates (api/dashboard/browser/dashboard.js). */
const DASHBOARD_SCRIPT = '/dashboard/static/dashboard.js';

const NAV: [string, string][] = [
  ['/dashboard', 'Apps'],
  ['/dashboard/campaigns', 'Campaigns'],
  ['/dashboard/creators', 'Creators'],
  ['/dashboard/bonus-awards', 'Bonus awards'],
  ['/dashboard/reviews', 'Reviews'],
  ['/dashboard/free-codes', 'Free codes'],
  ['/dashboard/assets', 'Assets'],
  ['/dashboard/wallet', 'Wallet'],
  ['/dashboard/agents', 'Connect an agent'],
  ['/dashboard/team', 'Team'],
];

/** The navigation entry a path belongs to: its own, or the section it is under (an app's pages are under Apps). */
function currentNav(path: string): string | undefined {
  if (path.startsWith('/dashboard/apps/')) return '/dashboard';
  return (
    NAV.map(([href]) => href).filter((href) => href !== '/dashboard' && (path === href || path.startsWith(`${href}/`)))[0] ??
    (path === '/dashboard' ? '/dashboard' : undefined)
  );
}

/**
 * The product, the organization by name and, for a user in several, the switcher (a GET form: `?org=`); who is
 * signed in, and sign out.
 */
function Brand({ s, path }: { s: SignedIn; path: string }) {
  const current = s.orgs.find((o) => o.id === s.orgId);
  return (
    <div class="brand" id="brand">
      <span class="product">svc</span>
      <span class="org" id="org-name">
        {current ? current.name : 'No organization'}
      </span>
      {s.orgs.length > 1 ? (
        <form method="get" action={path}>
          <label for="org-pick" class="muted">
            Switch organization
          </label>
          <select id="org-pick" name="org">
            {s.orgs.map((o) => (
              <option value={o.id} selected={o.id === s.orgId}>
                {o.name}
              </option>
            ))}
          </select>
          <button type="submit" class="secondary">
            Switch
          </button>
        </form>
      ) : null}
      <span class="muted who">
        {s.email}
        {s.role ? ` (${s.role})` : ''}
      </span>
      <form method="post" action="/dashboard/logout">
        <CsrfField s={s} />
        <button type="submit" class="secondary">
          Sign out
        </button>
      </form>
    </div>
  );
}

function TopNav({ s, path }: { s: SignedIn; path: string }) {
  const current = currentNav(path);
  return (
    <nav class="top" aria-label="Dashboard">
      {NAV.map(([href, label]) => (
        <a href={safeUrl(orgLink(s, href))} aria-current={current === href ? 'page' : undefined}>
          {label}
          {href === '/dashboard/reviews' && s.openHolds ? (
            <>
              {' '}
              <span class="badge warn" id="open-holds">
                {s.openHolds}
                <span class="visually-hidden"> held for review</span>
              </span>
            </>
          ) : null}
        </a>
      ))}
    </nav>
  );
}

export function dashboardPage(
  ctx: AppContext,
  s: SignedIn,
  status: number,
  title: string,
  body: ComponentChildren,
  extras: PageExtras = {},
): void {
  const { formAction = "'self'", scripts = [] } = extras;
  ctx.set('Cache-Control', 'no-store');
  sendPage(ctx, status, {
    title: `${title} · svc dashboard`,
    lang: 'en',
    formAction,
    wide: true,
    scripts: [DASHBOARD_SCRIPT, ...scripts],
    body: (
      <>
        <Brand s={s} path={ctx.path} />
        <TopNav s={s} path={ctx.path} />
        {'\n'}
        <h1>{title}</h1>
        {'\n'}
        <FlashBox flash={s.flash?.flash} />
        {body}
      </>
    ),
  });
}

/** A refused page post (403, 404, 422) as the page `title` with the reason as an alert and the way back under it. */
export const refusalPage = (ctx: AppContext, s: SignedIn, status: number, title: string, message: string, back: ComponentChildren) =>
  dashboardPage(
    ctx,
    s,
    status,
    title,
    <>
      <p class="error" role="alert">
        {message}
      </p>
      {back}
    </>,
  );
