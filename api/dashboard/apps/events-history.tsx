// GET /dashboard/apps/{app_id}/events/history: the app's purchase event log as a table (the rows of events/recent
// with the dashboard's amounts: db/recent-events.ts pagePurchaseEvents), with the environment filter, search, sort,
// pages and `?format=csv`. The live page (events-page.tsx) shows the latest rows as they arrive; this one is for
// looking back. Another organization's app is 404.
import { describeBasis } from '../../../lib/commission-basis.js';
import { findApp } from '../../../db/apps.js';
import { PURCHASE_EVENT_TABLE, pagePurchaseEvents, type EnvironmentFilter, type PurchaseEventView } from '../../../db/recent-events.js';
import { webhookView } from '../../agent/recent-events.js';
import { environmentLabel } from '../../../lib/api-environment.js';
import type { AppContext } from '../../context.js';
import { DataTable, sendTableCsv, tableRequest, timeColumn, usd, type TableDef } from '../../view-kit/data-table.js';
import { carriedCode, via } from './event-rows.js';
import { dashboardPage, Hidden, OrgLink } from '../../view-kit/layout.js';
import { signedIn, visibleOrNotFoundPage } from '../signed-in.js';

/** What became of a purchase event, in the live page's words. */
function outcome(e: PurchaseEventView): string {
  const v = webhookView(e);
  if (v.failed) return 'failed';
  if (v.attributed) return `attributed${via(v.attribution_method)}`;
  if (v.organic) return 'organic';
  return v.error ? 'ignored' : 'received';
}

const EVENTS: TableDef<PurchaseEventView> = {
  id: 'event-table',
  caption: 'Purchase events',
  spec: PURCHASE_EVENT_TABLE,
  file: 'purchase-events.csv',
  rowKey: (r) => r.event_id,
  columns: [
    timeColumn('Received', (r) => r.received_at, 'received_at'),
    { label: 'Event', text: (r) => r.event_id, html: (r) => <code>{r.event_id}</code> },
    { label: 'Type', sort: 'event_type', text: (r) => r.event_type },
    { label: 'App user', sort: 'app_user_id', wrapAny: true, text: (r) => r.app_user_id },
    { label: 'Product', sort: 'product_id', text: (r) => r.product_id },
    { label: 'Environment', sort: 'environment', text: (r) => environmentLabel(r.store_environment) },
    { label: 'Outcome', sort: 'processing_status', text: outcome },
    { label: 'Code carried', sort: 'referral_code', text: carriedCode },
    { label: 'Refusal reason', text: (r) => r.error },
    { label: 'Price (USD)', sort: 'price_usd_micros', text: (r) => usd(r.price_usd_micros) },
    { label: 'Commission (USD)', sort: 'commission_micros', text: (r) => usd(r.commission_micros) },
    { label: 'Commission basis', text: (r) => (r.commission_basis ? describeBasis(r.commission_basis) : '') },
  ],
};

const ENVIRONMENTS: readonly EnvironmentFilter[] = ['SANDBOX', 'PRODUCTION'];

export async function eventsHistoryPage(ctx: AppContext): Promise<void> {
  const s = await signedIn(ctx);
  if (!s) return;
  const app = visibleOrNotFoundPage(ctx, s, await findApp(ctx.deps.db, ctx.params.app_id as string), 'App');
  if (!app) return;
  const environment = ENVIRONMENTS.find((e) => e === ctx.query.environment);
  const { view, csv, window } = tableRequest(ctx, PURCHASE_EVENT_TABLE);
  const page = await pagePurchaseEvents(ctx.deps.db, app.id, { environment }, view, window);
  if (csv) return sendTableCsv(ctx, EVENTS, page);
  const path = `/dashboard/apps/${encodeURIComponent(app.id)}/events/history`;
  const option = (value: string, label: string) => (
    <option value={value} selected={(environment ?? '') === value}>
      {label}
    </option>
  );
  dashboardPage(
    ctx,
    s,
    200,
    `Purchase history · ${app.name}`,
    <>
      <p class="muted">
        Every purchase event of the app.{' '}
        <OrgLink s={s} to={`/dashboard/apps/${encodeURIComponent(app.id)}/events`}>
          Live events
        </OrgLink>
      </p>
      <form method="get" action={path}>
        {s.orgIds.length > 1 && s.orgId ? <Hidden fields={{ org: s.orgId }} /> : null}
        <label for="env-filter">Environment</label>{' '}
        <select id="env-filter" name="environment">
          {option('', 'All')}
          {option('SANDBOX', 'Sandbox')}
          {option('PRODUCTION', 'Production')}
        </select>{' '}
        <button type="submit">Filter</button>
      </form>
      <DataTable s={s} def={EVENTS} page={page} view={view} path={path} filters={{ environment }} />
    </>,
  );
}
