// One row of the real-time events view, the same markup whether the page renders it or the stream carries it (the
// page's script inserts the stream's `html` as is). Purchase events are shaped by events/recent's own webhookView,
// so the flags (attributed / organic / failed) and the code shown follow the agent API's rule.
import type { FeedEntry } from '../../db/app-event-feed.js';
import type { PurchaseEventView, SdkEventView } from '../../db/recent-events.js';
import { escapeHtml as e } from '../../lib/html.js';
import { webhookView } from '../agent/recent-events.js';

export type ViewEntry = { kind: 'sdk'; event: SdkEventView } | { kind: 'purchase'; event: PurchaseEventView };

/** What the stream sends for an entry: the events/recent shape of its row, its workflow link, and its markup. */
export interface StreamMessage { seq: number; kind: 'sdk' | 'purchase'; event: Record<string, unknown>; workflow_url: string | null; html: string }

/** Links a conversion's workflow in the Temporal Web UI (TEMPORAL_UI_URL), or nothing when no UI is configured. */
export function workflowUrl(uiUrl: string | undefined, namespace: string, workflowId: string | undefined): string | null {
  if (!uiUrl || !workflowId) return null;
  return `${uiUrl.replace(/\/+$/, '')}/namespaces/${encodeURIComponent(namespace)}/workflows/${encodeURIComponent(workflowId)}`;
}

const when = (d: Date | string) => new Date(d).toISOString().replace('T', ' ').slice(0, 19);

function outcome(v: ReturnType<typeof webhookView>): string {
  if (v.failed) return `<span class="error">failed</span> <span class="muted">${e(v.error ?? '')}</span>`;
  if (v.attributed) return '<span class="done">attributed</span>';
  if (v.organic) return '<span class="muted">organic</span>';
  return `<span class="open">${e(v.error ? 'ignored' : 'received')}</span>${v.error ? ` <span class="muted">${e(v.error)}</span>` : ''}`;
}

export function shapeEntry(entry: ViewEntry): Record<string, unknown> {
  return entry.kind === 'purchase' ? webhookView(entry.event) : { ...entry.event };
}

export function rowHtml(entry: ViewEntry, link: string | null, seq?: number): string {
  const seqAttr = seq === undefined ? '' : ` data-seq="${seq}"`;
  if (entry.kind === 'sdk') {
    const s = entry.event;
    return `<tr data-kind="sdk" data-event-id="${e(s.event_id)}"${seqAttr}><td>${when(s.created_at)}</td><td>SDK event</td><td><code>${e(s.event_type)}</code></td><td>${e(s.app_user_id)}</td><td>${e(s.environment ?? '')}</td><td class="muted">${e(s.platform ?? '')}</td><td>${s.referral_code ? `<code>${e(s.referral_code)}</code>` : ''}</td><td></td></tr>`;
  }
  const v = webhookView(entry.event);
  const wf = link ? `<a href="${e(link)}" target="_blank" rel="noopener">workflow</a>` : '';
  return `<tr data-kind="purchase" data-event-id="${e(v.event_id)}"${seqAttr}><td>${when(v.received_at)}</td><td>Purchase</td><td><code>${e(v.event_type)}</code></td><td>${e(v.app_user_id ?? '')}</td><td>${e(v.environment ?? '')}</td><td class="attribution">${outcome(v)}</td><td>${v.referral_code ? `<code>${e(v.referral_code)}</code>` : ''}</td><td>${wf}</td></tr>`;
}

export function streamMessage(entry: FeedEntry, link: string | null): StreamMessage {
  return { seq: entry.seq, kind: entry.kind, event: shapeEntry(entry), workflow_url: link, html: rowHtml(entry, link, entry.seq) };
}
