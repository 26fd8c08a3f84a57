// The one small visual system of every signed-in page (the dashboard and the creator portal alike): a type scale,
// a spacing scale and one accent colour as CSS custom properties, a status pill for every state word a person meets
// (held, payable, sending, paid, returned, reversed, clawed back, under review, live, organic and the workflow words
// of campaigns, codes, awards and keys), cards for key figures with a small inline trend, and empty states that say
// what to do next. The style sheet below is appended to api/view-kit/html.tsx's; the pill's colours are that sheet's
// `.badge` tones (each keeps 4.5:1 or more against its background), so a pill and a badge are one look.
import type { ComponentChildren } from 'preact';
import { safeUrl } from './html.js';

export type Tone = 'ok' | 'warn' | 'bad' | 'info' | 'neutral';

/**
 * Each state word and its tone. Keys are the stored values (snake_case), the words what a person reads. Colour is
 * never the only signal: the word is always written.
 */
const STATES: Record<string, { words: string; tone: Tone }> = {
  // money states (commissions, bonus awards, payouts)
  held: { words: 'held', tone: 'warn' },
  unfunded: { words: 'unfunded', tone: 'bad' },
  payable: { words: 'payable', tone: 'ok' },
  sending: { words: 'sending', tone: 'info' },
  paid: { words: 'paid', tone: 'ok' },
  settled: { words: 'settled', tone: 'neutral' },
  returned: { words: 'returned', tone: 'bad' },
  reversed: { words: 'reversed', tone: 'bad' },
  clawed_back: { words: 'clawed back', tone: 'bad' },
  under_review: { words: 'under review', tone: 'warn' },
  earned: { words: 'earned', tone: 'warn' },
  approved: { words: 'approved', tone: 'ok' },
  voided: { words: 'voided', tone: 'bad' },
  // commissions under review (held for review, or flagged and paid as usual)
  flagged: { words: 'flagged', tone: 'warn' },
  // purchases as the live events view shows them
  attributed: { words: 'attributed', tone: 'ok' },
  organic: { words: 'organic', tone: 'neutral' },
  received: { words: 'received', tone: 'info' },
  ignored: { words: 'ignored', tone: 'warn' },
  failed: { words: 'failed', tone: 'bad' },
  // campaigns, codes, invitations, keys, checklist steps
  live: { words: 'live', tone: 'ok' },
  active: { words: 'active', tone: 'ok' },
  joined: { words: 'joined', tone: 'ok' },
  accepted: { words: 'accepted', tone: 'ok' },
  succeeded: { words: 'succeeded', tone: 'ok' },
  connected: { words: 'connected', tone: 'ok' },
  done: { words: 'done', tone: 'ok' },
  ok: { words: 'ok', tone: 'ok' },
  paused: { words: 'paused', tone: 'warn' },
  pending: { words: 'pending', tone: 'warn' },
  draft: { words: 'draft', tone: 'warn' },
  open: { words: 'open', tone: 'warn' },
  unchecked: { words: 'unchecked', tone: 'warn' },
  blocked: { words: 'blocked', tone: 'bad' },
  revoked: { words: 'revoked', tone: 'bad' },
  void: { words: 'void', tone: 'bad' },
  withdrawn: { words: 'withdrawn', tone: 'bad' },
  expired: { words: 'expired', tone: 'bad' },
  archived: { words: 'archived', tone: 'bad' },
  rejected: { words: 'rejected', tone: 'bad' },
  removed: { words: 'removed', tone: 'neutral' },
};

/** A state as text: stored states are strings (or null); anything else has no words. */
const textOf = (state: unknown): string => (typeof state === 'string' ? state : state == null ? '' : JSON.stringify(state));

const keyOf = (state: unknown) =>
  textOf(state)
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

/** The tone of a state word (neutral for a word not listed). */
export const toneOf = (state: unknown): Tone => STATES[keyOf(state)]?.tone ?? 'neutral';

/** The words of a state (`clawed_back` → "clawed back"); an unlisted word is shown with its underscores as spaces. */
export const stateWords = (state: unknown): string => STATES[keyOf(state)]?.words ?? textOf(state).replace(/_/g, ' ');

/** A coloured pill with its own words; any other words (e.g. an element of a tone). */
export const Pill = ({
  tone = 'neutral',
  children,
  class: cls,
  id,
}: {
  tone?: Tone;
  children: ComponentChildren;
  class?: string;
  id?: string;
}) => (
  <span id={id} class={`badge ${tone}${cls ? ` ${cls}` : ''}`}>
    {children}
  </span>
);

/**
 * The pill of a state word: its tone from the table above, its words (or `label`, e.g. the portal's capitalised
 * "Clawed back") and `data-state` the stored value, which tests and scripts read.
 */
export const StatePill = ({ state, label, class: cls, id }: { state: unknown; label?: string; class?: string; id?: string }) => (
  <span id={id} class={`badge ${toneOf(state)}${cls ? ` ${cls}` : ''}`} data-state={keyOf(state)}>
    {label ?? stateWords(state)}
  </span>
);

/**
 * A state's sentence with its leading state word as the pill: "returned: nothing was paid (why)" reads as the pill
 * "returned" and the rest in words (the text content stays the sentence).
 */
export const StateText = ({ state, text }: { state: string; text: string }) =>
  text.startsWith(stateWords(state)) ? (
    <>
      <StatePill state={state} />
      {text.slice(stateWords(state).length)}
    </>
  ) : (
    <>{text}</>
  );

/**
 * A trend as a small inline SVG line (no script, no image request: the pages' CSP allows neither). The values are
 * drawn left to right, the oldest first, scaled to the largest; `label` is its text alternative and `data-values`
 * the numbers drawn.
 */
export function Sparkline({ values, label }: { values: readonly number[]; label: string }) {
  const w = 120;
  const h = 28;
  const max = Math.max(0, ...values);
  const step = values.length > 1 ? w / (values.length - 1) : w;
  const y = (v: number) => (max > 0 ? h - 2 - (v / max) * (h - 4) : h - 2).toFixed(1);
  const points = values.map((v, i) => `${(i * step).toFixed(1)},${y(v)}`).join(' ');
  return (
    <svg
      class="spark"
      viewBox={`0 0 ${w} ${h}`}
      width={w}
      height={h}
      role="img"
      aria-label={label}
      preserveAspectRatio="none"
      data-values={values.join(' ')}
    >
      <polyline points={points} fill="none" stroke="currentColor" stroke-width="2" stroke-linejoin="round" />
    </svg>
  );
}

export interface KeyFigure {
  /** The figure's element id (tests and the overview's callers read the value by it). */
  id: string;
  label: string;
  value: string;
  /** Daily values, oldest first; no trend drawn when absent. */
  trend?: readonly number[];
  /** The trend's words: what it spans. */
  trendLabel?: string;
  note?: ComponentChildren;
}

/** One key figure: its label, the value large, a trend line under it and a short note. */
export const FigureCard = ({ f }: { f: KeyFigure }) => (
  <div class="card" data-figure={f.id}>
    <p class="card-label" id={`${f.id}-label`}>
      {f.label}
    </p>
    <p class="card-value" id={f.id} aria-describedby={`${f.id}-label`}>
      {f.value.endsWith(' USD') ? (
        <>
          {f.value.slice(0, -4)}
          <span class="unit"> USD</span>
        </>
      ) : (
        f.value
      )}
    </p>
    {f.trend ? <Sparkline values={f.trend} label={`${f.label}: ${f.trendLabel ?? 'daily trend'}`} /> : null}
    {f.note ? <p class="card-note">{f.note}</p> : null}
  </div>
);

/** Key figures as a grid of cards (a list, so a screen reader counts them). */
export const FigureCards = ({ figures, label }: { figures: KeyFigure[]; label: string }) => (
  <ul class="cards" aria-label={label}>
    {figures.map((f) => (
      <li>
        <FigureCard f={f} />
      </li>
    ))}
  </ul>
);

/** What an empty list means and the next step (a link when there is a page for it). */
export const EmptyState = ({
  id,
  title,
  children,
  action,
}: {
  id?: string;
  title: string;
  children?: ComponentChildren;
  action?: { href: string; label: string };
}) => (
  <div class="empty-state" id={id}>
    <p class="empty-title">{title}</p>
    {children ? <p>{children}</p> : null}
    {action ? (
      <p>
        <a href={safeUrl(action.href)}>{action.label}</a>
      </p>
    ) : null}
  </div>
);
