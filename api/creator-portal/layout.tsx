// The portal's page shell: the dashboard's document (api/view-kit/html.tsx) with the portal's own navigation (its campaigns,
// the signed-in address, sign out). Wide tables scroll sideways inside their box, so a page reads at 390 px.
import type { ComponentChildren } from 'preact';
import { Button, ScrollTable as UiScrollTable } from '../view-kit/ui.js';
import { PORTAL_PATH } from '../auth/authenticate.js';
import type { AppContext } from '../context.js';
import { sendPage } from '../send-page.js';
import type { CreatorSignedIn } from './auth.js';

const CsrfField = ({ s }: { s: CreatorSignedIn }) => <input type="hidden" name="csrf" value={s.csrf} />;

const PortalForm = ({ s, action, label }: { s: CreatorSignedIn; action: string; label: string }) => (
  <form method="post" action={action}>
    <CsrfField s={s} />
    <Button kind="secondary">{label}</Button>
  </form>
);

/** A table in the dashboard's sideways-scrolling box (api/view-kit/ui.tsx), with its caption and column headers. */
export const ScrollTable = ({
  id,
  label,
  caption,
  columns,
  children,
}: {
  id?: string;
  label: string;
  caption?: string;
  columns: string[];
  children: ComponentChildren;
}) => (
  <UiScrollTable label={label}>
    <table id={id}>
      {caption ? <caption>{caption}</caption> : null}
      <thead>
        <tr>
          {columns.map((c) => (
            <th scope="col">{c}</th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  </UiScrollTable>
);

function PortalNav({ s, path }: { s: CreatorSignedIn; path: string }) {
  return (
    <nav class="top" aria-label="Creator portal">
      <a href={PORTAL_PATH} aria-current={path === PORTAL_PATH ? 'page' : undefined}>
        My campaigns
      </a>
      {'\n'}
      <span class="muted">{s.creator.email}</span>
      {'\n'}
      <PortalForm s={s} action={`${PORTAL_PATH}/sign-out`} label="Sign out" />
    </nav>
  );
}

export function portalPage(ctx: AppContext, s: CreatorSignedIn, status: number, title: string, body: ComponentChildren): void {
  ctx.set('Cache-Control', 'no-store');
  sendPage(ctx, status, {
    title: `${title} · creator portal`,
    lang: 'en',
    formAction: "'self'",
    wide: true,
    body: (
      <>
        <div class="brand" id="brand">
          <span class="product">svc</span>
          <span class="org">Creator portal</span>
        </div>
        <PortalNav s={s} path={ctx.path} />
        {'\n'}
        <h1>{title}</h1>
        {'\n'}
        {body}
      </>
    ),
  });
}

/** A page before sign-in (the sign-in form, the confirm page, unsubscribing). */
export function publicPortalPage(ctx: AppContext, status: number, title: string, body: ComponentChildren): void {
  ctx.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
  sendPage(ctx, status, {
    title: `${title} · creator portal`,
    lang: 'en',
    formAction: "'self'",
    body: (
      <>
        <h1>{title}</h1>
        {'\n'}
        {body}
      </>
    ),
  });
}
