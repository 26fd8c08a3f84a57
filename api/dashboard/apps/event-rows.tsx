// One row of the real-time events view, the same markup whether the page renders it or the stream carries it (the
// page's script inserts the stream's `html` as is). Purchase events are shaped by events/recent's own webhookView,
// so the flags (attributed / organic / failed) follow the agent API's rule; beside them the dashboard alone shows the
// code the purchase carried (also when it attributed nothing, saying whether it matched no creator), the reason it
// was refused or ignored, its price and the commission written for it (read with `amounts`, db/recent-events.ts),
// and a badge when that commission is under review ("Held for review", "Flagged"; the Reviews page has the evidence).
import { LocalTime } from '../../view-kit/ui.js';
import { StatePill } from '../../view-kit/visual.js';
import type { FeedEntry } from '../../../db/app-event-feed.js';
import type { PurchaseEventView, SdkEventView } from '../../../db/recent-events.js';
import { renderToString } from 'preact-render-to-string';
import { safeUrl } from '../../view-kit/html.js';
import { sdkEventView, webhookView } from '../../agent/recent-events.js';
import { environmentLabel } from '../../../lib/api-environment.js';
import { usd } from '../../view-kit/data-table.js';
import { describeBasis } from '../../../lib/commission-basis.js';

export type ViewEntry = { kind: 'sdk'; event: SdkEventView } | { kind: 'purchase'; event: PurchaseEventView };

/** What the stream sends for an entry: the events/recent shape of its row, its workflow link, and its markup. */
export interface StreamMessage {
  seq: number;
  kind: 'sdk' | 'purchase';
  event: Record<string, unknown>;
  workflow_url: string | null;
  html: string;
}

/** Links a conversion's workflow in the Temporal Web UI (TEMPORAL_UI_URL), or nothing when no UI is configured. */
export function workflowUrl(uiUrl: string | undefined, namespace: string, workflowId: string | undefined): string | null {
  if (!uiUrl || !workflowId) return null;
  return `${uiUrl.replace(/\/+$/, '')}/namespaces/${encodeURIComponent(namespace)}/workflows/${encodeURIComponent(workflowId)}`;
}

const when = (d: Date | string) => <LocalTime at={d} />;

/** How an attributed event was attributed, where it is worth saying: a creator's store offer code (no click, no code). */
export const via = (method: string | null | undefined): string => (method === 'offer_code' ? ' via offer code' : '');

function Outcome({ v }: { v: ReturnType<typeof webhookView> }) {
  const state = v.failed ? 'failed' : v.attributed ? 'attributed' : v.organic ? 'organic' : v.error ? 'ignored' : 'received';
  const why = v.failed || !(v.attributed || v.organic) ? v.error : undefined;
  return (
    <>
      <StatePill state={state} label={v.attributed ? `attributed${via(v.attribution_method)}` : undefined} />
      {why ? (
        <>
          {' '}
          <span class="muted">{why}</span>
        </>
      ) : null}
    </>
  );
}

function shapeEntry(entry: ViewEntry): Record<string, unknown> {
  return entry.kind === 'purchase' ? webhookView(entry.event) : sdkEventView(entry.event);
}

/** A purchase whose commission is under review, in words (the review queue has the evidence). */
const REVIEW_BADGES: Record<string, string> = {
  held: 'Held for review',
  flagged: 'Flagged',
  approved: 'Approved after review',
  voided: 'Voided after review',
};

export function ReviewBadge({ state }: { state: string | null | undefined }) {
  const words = state ? REVIEW_BADGES[state] : undefined;
  if (!words) return null;
  return (
    <>
      {' '}
      <StatePill state={state} label={words} class="review-badge" />
    </>
  );
}

const Code = ({ code }: { code: string | null | undefined }) => (code ? <code>{code}</code> : null);

/** The code a purchase carried, and what became of it when it attributed nothing (text: also the CSV's cell). */
export function carriedCode(e: PurchaseEventView): string {
  if (!e.referral_code) return '';
  if (e.attributed) return e.referral_code;
  return `${e.referral_code} (${e.code_known === false ? 'matched no creator' : 'not attributed'})`;
}

export function EventRow({ entry, link, seq }: { entry: ViewEntry; link: string | null; seq?: number }) {
  if (entry.kind === 'sdk') {
    const s = entry.event;
    return (
      <tr data-kind="sdk" data-event-id={s.event_id} data-seq={seq}>
        <td>{when(s.created_at)}</td>
        <td>SDK event</td>
        <td>
          <code>{s.event_type}</code>
        </td>
        <td class="wrap-any">{s.app_user_id}</td>
        <td>{environmentLabel(s.store_environment)}</td>
        <td class="muted">{s.platform ?? ''}</td>
        <td>
          <Code code={s.referral_code} />
        </td>
        <td></td>
        <td></td>
        <td></td>
        <td></td>
      </tr>
    );
  }
  const v = webhookView(entry.event);
  return (
    <tr data-kind="purchase" data-event-id={v.event_id} data-seq={seq}>
      <td>{when(v.received_at)}</td>
      <td>Purchase</td>
      <td>
        <code>{v.event_type}</code>
      </td>
      <td class="wrap-any">{v.app_user_id ?? ''}</td>
      <td>{environmentLabel(entry.event.store_environment)}</td>
      <td class="attribution">
        <Outcome v={v} />
        <ReviewBadge state={entry.event.review_state} />
      </td>
      <td class="carried-code">
        {entry.event.referral_code ? (
          <>
            <code>{entry.event.referral_code}</code>
            {v.attributed ? null : (
              <>
                {' '}
                <span class="muted">{entry.event.code_known === false ? 'matched no creator' : 'not attributed'}</span>
              </>
            )}
          </>
        ) : null}
      </td>
      <td class="reason">{v.error ?? ''}</td>
      <td class="price">{usd(entry.event.price_usd_micros)}</td>
      <td class="commission">
        {usd(entry.event.commission_micros)}
        {/* gross, the default, goes unsaid here (the events history has a column for every basis) */}
        {entry.event.commission_basis?.basis === 'proceeds' ? (
          <div class="muted basis">{describeBasis(entry.event.commission_basis)}</div>
        ) : null}
      </td>
      <td>
        {link ? (
          <a href={safeUrl(link)} target="_blank" rel="noopener">
            workflow
          </a>
        ) : null}
      </td>
    </tr>
  );
}

export function streamMessage(entry: FeedEntry, link: string | null): StreamMessage {
  return {
    seq: entry.seq,
    kind: entry.kind,
    event: shapeEntry(entry),
    workflow_url: link,
    html: renderToString(<EventRow entry={entry} link={link} seq={entry.seq} />),
  };
}
