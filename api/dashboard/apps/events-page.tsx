// The real-time events view of one app: GET /dashboard/apps/{app_id}/events renders the latest SDK and purchase
// events (events/recent's rows and environment filter) with no JavaScript needed, and
// GET /dashboard/apps/{app_id}/events/stream sends each new or changed one as a server-sent event whose id is the
// app feed's seq (schema migration 0024), fed by LISTEN/NOTIFY through api/dashboard/apps/events-hub.ts. A stream
// starts after `Last-Event-ID` (the browser's own resume) or `?after=` (the page's cursor), reads the rows after
// it from the database, then goes live: no gap, no repeat. Session only; another organization's app is 404.
import { ScrollTable } from '../../view-kit/ui.js';
import { PassThrough } from 'node:stream';
import { findApp } from '../../../db/apps.js';
import { conversionWorkflowIds, eventLogSnapshot, latestFeedSeq, readFeedAfter, type FeedEntry } from '../../../db/app-event-feed.js';
import type { EnvironmentFilter } from '../../../db/recent-events.js';
import { UnauthorizedError, UnavailableError, ValidationError } from '../../../errors/http-errors.js';
import { visibleTo } from '../../agent/principal.js';
import type { AppContext } from '../../context.js';
import { inputOf } from '../../middleware/validate.js';
import { FEED_PAGE, eventHubOf } from './events-hub.js';
import { EventRow, streamMessage, workflowUrl, type ViewEntry } from './event-rows.js';
import { dashboardPage, Hidden, OrgLink, orgLink } from '../../view-kit/layout.js';
import { signedIn, visibleOrNotFoundPage } from '../signed-in.js';
import type { StaticScript } from '../static-assets.js';

/** Rows the page renders per list (events/recent's lists, merged newest first). */
export const PAGE_ROWS = 50;
/** The page's script (api/dashboard/browser/live-events.js). */
const LIVE_EVENTS_PATH: StaticScript = '/dashboard/static/live-events.js';
const HEARTBEAT_MS = 15_000;
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

export const eventsQuery = {
  type: 'object',
  properties: {
    environment: { enum: ['SANDBOX', 'PRODUCTION'] },
    after: { type: 'integer', minimum: 0 },
    org: { type: 'string' },
  },
} as const;
interface EventsQuery {
  environment?: EnvironmentFilter;
  after?: number;
}

const time = (v: ViewEntry) => new Date(v.kind === 'sdk' ? v.event.created_at : v.event.received_at).getTime();

/** The workflow link of each purchase among `entries`, by conversion id. */
async function workflowLinks(ctx: AppContext, entries: ViewEntry[]): Promise<(entry: ViewEntry) => string | null> {
  const ids = entries.flatMap((x) => (x.kind === 'purchase' && x.event.conversion_id ? [x.event.conversion_id] : []));
  const workflows = await conversionWorkflowIds(ctx.deps.db, [...new Set(ids)]);
  const { TEMPORAL_UI_URL: ui, TEMPORAL_NAMESPACE: ns } = ctx.deps.config;
  return (x) => (x.kind === 'purchase' && x.event.conversion_id ? workflowUrl(ui, ns, workflows.get(x.event.conversion_id)) : null);
}

export async function eventsPage(ctx: AppContext): Promise<void> {
  const s = await signedIn(ctx);
  if (!s) return;
  const app = visibleOrNotFoundPage(ctx, s, await findApp(ctx.deps.db, ctx.params.app_id as string), 'App');
  if (!app) return;
  const { environment } = inputOf<EventsQuery>(ctx);
  // One snapshot for the rows and the cursor the stream continues from: nothing in between is lost or repeated.
  const { cursor, sdk, purchases } = await eventLogSnapshot(ctx.deps.db, app.id, { environment, limit: PAGE_ROWS });
  const rows: ViewEntry[] = [
    ...sdk.map((event) => ({ kind: 'sdk' as const, event })),
    ...purchases.map((event) => ({ kind: 'purchase' as const, event })),
  ].sort((a, b) => time(b) - time(a));
  const linkOf = await workflowLinks(ctx, rows);
  const here = orgLink(s, `/dashboard/apps/${encodeURIComponent(app.id)}/events`);
  const stream = `${ctx.path}/stream${environment ? `?environment=${environment}` : ''}`;
  const option = (value: string, label: string) => (
    <option value={value} selected={(environment ?? '') === value}>
      {label}
    </option>
  );
  dashboardPage(
    ctx,
    s,
    200,
    `Live events · ${app.name}`,
    <>
      <p class="muted">
        SDK events and purchase events as they arrive, newest first (the rows of <code>events/recent</code>). SDK events carry no
        environment and show under every filter. Status:{' '}
        <span id="live-status" class="muted" role="status">
          as of page load
        </span>{' '}
        ·{' '}
        <OrgLink s={s} to={`/dashboard/apps/${encodeURIComponent(app.id)}`}>
          Setup page
        </OrgLink>{' '}
        ·{' '}
        <OrgLink s={s} to={`/dashboard/apps/${encodeURIComponent(app.id)}/events/history`}>
          Purchase history: search, sort, CSV
        </OrgLink>
      </p>
      <form method="get" action={here}>
        {s.orgIds.length > 1 && s.orgId ? <Hidden fields={{ org: s.orgId }} /> : null}
        <label for="env-filter">Environment</label>{' '}
        <select id="env-filter" name="environment">
          {option('', 'All')}
          {option('SANDBOX', 'Sandbox')}
          {option('PRODUCTION', 'Production')}
        </select>{' '}
        <button type="submit">Filter</button>
      </form>
      <p id="live-announce" class="visually-hidden" aria-live="polite" aria-atomic="true"></p>
      <ScrollTable label="Live events">
        <table id="live-events" data-cursor={cursor} data-stream={stream}>
          <thead>
            <tr>
              <th>Received</th>
              <th>Kind</th>
              <th>Type</th>
              <th>App user</th>
              <th>Environment</th>
              <th>Attribution / platform</th>
              <th>Code carried</th>
              <th>Refusal reason</th>
              <th>Price (USD)</th>
              <th>Commission (USD)</th>
              <th>Conversion</th>
            </tr>
          </thead>
          <tbody>
            {rows.length ? (
              rows.map((x) => <EventRow entry={x} link={linkOf(x)} />)
            ) : (
              <tr class="empty">
                <td colspan={11} class="muted">
                  No events yet.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </ScrollTable>
    </>,
    { scripts: [LIVE_EVENTS_PATH] },
  );
}

const closingHooks = new WeakMap<NodeJS.EventEmitter, Set<() => void>>();

/** Runs `hook` when the server emits 'closing' (one listener per server, however many streams are open). */
function onServerClosing(server: NodeJS.EventEmitter | undefined, hook: () => void): () => void {
  if (!server) return () => undefined;
  let hooks = closingHooks.get(server);
  if (!hooks) {
    const created = new Set<() => void>();
    server.on('closing', () => {
      for (const h of [...created]) h();
    });
    closingHooks.set(server, created);
    hooks = created;
  }
  hooks.add(hook);
  return () => hooks.delete(hook);
}

/** Where a stream starts: the browser's Last-Event-ID, else `?after=`, else now. */
function startCursor(ctx: AppContext, after: number | undefined): number | undefined {
  const header = ctx.get('last-event-id');
  if (header === '') return after;
  if (!/^\d{1,15}$/.test(header))
    throw new ValidationError([{ loc: ['header', 'last-event-id'], msg: 'An event id this stream sent (digits)', type: 'value_error' }]);
  return Number(header);
}

export const sessionOnly = async (ctx: AppContext, next: () => Promise<unknown>) => {
  if (ctx.state.principal?.kind !== 'user')
    throw new UnauthorizedError('Sign in to the dashboard: the event stream needs a browser session.');
  await next();
};

export async function eventStream(ctx: AppContext): Promise<void> {
  const app = visibleTo(ctx, await findApp(ctx.deps.db, ctx.params.app_id as string), 'App');
  const { environment, after } = inputOf<EventsQuery>(ctx);
  const hub = eventHubOf(ctx.deps.db, ctx.deps.appChanges, ctx.deps.logger);
  if (!hub) throw new UnavailableError('Live events need the change feed (the API runs without it); reload the page for the latest rows.');
  const start = startCursor(ctx, after) ?? (await latestFeedSeq(ctx.deps.db, app.id));

  const out = new PassThrough();
  const buffered: FeedEntry[] = [];
  let catchingUp = true;
  const sub = {
    appId: app.id,
    environment,
    cursor: start,
    deliver: (entries: FeedEntry[]) => (catchingUp ? buffered.push(...entries) : void send(entries)),
  };
  let sending = Promise.resolve();
  // Sends in order, past the subscriber's cursor only (a buffered entry the catch-up already sent is skipped).
  const send = (entries: FeedEntry[]) => {
    sending = sending
      .then(async () => {
        const fresh = entries.filter((x) => x.seq > sub.cursor);
        if (fresh.length === 0 || !out.writable) return;
        sub.cursor = fresh.at(-1)!.seq;
        const linkOf = await workflowLinks(ctx, fresh);
        out.write(fresh.map((x) => `id: ${x.seq}\ndata: ${JSON.stringify(streamMessage(x, linkOf(x)))}\n\n`).join(''));
        // A reader that does not keep up is cut off rather than buffered without bound: it resumes from the database.
        if (out.writableLength > MAX_BUFFERED_BYTES) out.end();
      })
      .catch((err: unknown) => {
        ctx.deps.logger.warn({ err }, 'event stream write failed');
        out.destroy();
      });
    return sending;
  };

  ctx.req.socket.setTimeout(0);
  ctx.req.socket.setNoDelay(true);
  ctx.status = 200;
  ctx.set({
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
    'X-Accel-Buffering': 'no',
    Connection: 'close',
  });
  ctx.body = out;
  out.write('retry: 1000\n\n');

  const unsubscribe = await hub.subscribe(sub);
  const heartbeat = setInterval(() => out.writable && out.write(': keep-alive\n\n'), HEARTBEAT_MS).unref();
  // The server closing (closeServer) ends every stream at once; the browser reconnects to the next process.
  const forget = onServerClosing((ctx.req.socket as { server?: NodeJS.EventEmitter }).server, () => out.end());
  out.once('close', () => {
    clearInterval(heartbeat);
    unsubscribe();
    forget();
  });
  ctx.req.once('close', () => out.destroy());

  let cursor = start;
  for (let more = true; more && out.writable;) {
    const page = await readFeedAfter(ctx.deps.db, app.id, { after: cursor, environment, limit: FEED_PAGE });
    cursor = page.cursor;
    more = page.more;
    await send(page.entries);
  }
  catchingUp = false;
  await send(buffered.splice(0));
}
