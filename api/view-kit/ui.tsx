// The pages' shared pieces (one look for every page the dashboard and the signed links render): form fields with
// their error beside them and the typed value kept, badges, flash messages, copy buttons and dates. Styles are
// api/view-kit/html.tsx's sheet; the behaviour (copy, local dates, confirm dialogs) is api/dashboard/browser/dashboard.js,
// and every piece works without it.
import type { ComponentChildren, InputHTMLAttributes, TextareaHTMLAttributes } from 'preact';
import { formatDate } from '../../lib/dates.js';
import { safeUrl } from './html.js';
import { StatePill } from './visual.js';

export type { Tone } from './visual.js';
/** A status word in a coloured pill (api/view-kit/visual.tsx: the visual system's pill). */
export { Pill as Badge } from './visual.js';

/** The pill of a state word (campaigns, invitations, awards, codes, payments, checklist steps): visual.tsx's StatePill. */
export const StatusBadge = ({ status, class: cls, id }: { status: unknown; class?: string; id?: string }) => (
  <StatePill state={status} class={cls} id={id} />
);

export type ButtonKind = 'primary' | 'secondary' | 'danger';

/** A submit button of one of the three kinds (primary is the one thing the page is for). */
export const Button = ({
  kind = 'primary',
  children,
  name,
  value,
  type = 'submit',
  id,
}: {
  kind?: ButtonKind;
  children: ComponentChildren;
  name?: string;
  value?: string;
  type?: 'submit' | 'button';
  id?: string;
}) => (
  <button type={type} id={id} name={name} value={value} class={kind === 'primary' ? undefined : kind}>
    {children}
  </button>
);

/** What a failed form left behind: a sentence per field (by name) and what was typed (by name). */
export interface FormState {
  errors?: Record<string, string>;
  values?: Record<string, string>;
  /** The field that gets the focus when the form comes back (the first that needs a change: form-errors.tsx). */
  focus?: string;
  /** Every problem as "Label: sentence", listed above the form that comes back. */
  lines?: string[];
}

interface FieldProps {
  name: string;
  label: ComponentChildren;
  id?: string;
  value?: string;
  state?: FormState;
  hint?: ComponentChildren;
  type?: string;
  inputmode?: 'decimal' | 'numeric' | 'email' | 'text';
  required?: boolean;
  textarea?: boolean;
  rows?: number;
  maxlength?: number;
  minlength?: number;
  min?: string;
  step?: string;
  placeholder?: string;
  autocomplete?: string;
  accept?: string;
}

/**
 * A labelled input whose error (from `state`) sits right under it in words, linked by aria-describedby, with the
 * typed value kept (the state's value wins over the default `value`).
 */
export function Field({ name, label, id = name, value, state, hint, textarea, rows, ...rest }: FieldProps) {
  const error = state?.errors?.[name];
  const kept = rest.type === 'file' ? undefined : (state?.values?.[name] ?? value ?? '');
  const described = [hint && hint !== error ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    name,
    'aria-invalid': error ? ('true' as const) : undefined,
    'aria-describedby': described,
    autofocus: state?.focus === name ? true : undefined,
    ...rest,
  } as InputHTMLAttributes<HTMLInputElement> & TextareaHTMLAttributes<HTMLTextAreaElement>;
  return (
    <>
      <label for={id}>{label}</label>
      {textarea ? (
        <textarea {...common} rows={rows ?? 4}>
          {kept}
        </textarea>
      ) : (
        <input {...common} value={kept} />
      )}
      {hint && hint !== error ? (
        <p class="muted" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      <FieldError id={id} error={error} />
    </>
  );
}

/** A field's error under it, in words (`{id}-error`, for the field's aria-describedby); nothing without one. */
export const FieldError = ({ id, error }: { id: string; error?: string }) =>
  error ? (
    <p class="field-error" id={`${id}-error`}>
      {error}
    </p>
  ) : null;

/** A checkbox (or radio) with its label beside it, the whole line clickable. */
export const Check = ({
  name,
  value,
  checked,
  type = 'checkbox',
  children,
  autofocus,
}: {
  name: string;
  value: string;
  checked?: boolean;
  type?: 'checkbox' | 'radio';
  children: ComponentChildren;
  autofocus?: boolean;
}) => (
  <label class="check">
    <input type={type} name={name} value={value} checked={checked} autofocus={autofocus || undefined} />
    <span>{children}</span>
  </label>
);

export interface FlashMessage {
  tone: 'ok' | 'bad' | 'info';
  text: string;
  /** One line per item (a batch's per-line outcomes). */
  lines?: string[];
  /** The way out, as a link (a 402's wallet page). */
  action?: { href: string; label: string };
}

/** What happened, at the top of the page the change redirected to (bad news is an alert, good news a status). */
export const Flash = ({ flash }: { flash?: FlashMessage }) =>
  flash ? (
    <div id="flash" class={`flash ${flash.tone}`} role={flash.tone === 'bad' ? 'alert' : 'status'}>
      <p>{flash.text}</p>
      {flash.lines?.length ? (
        <ul>
          {flash.lines.map((l) => (
            <li>{l}</li>
          ))}
        </ul>
      ) : null}
      {flash.action ? (
        <p>
          <a href={safeUrl(flash.action.href)}>{flash.action.label}</a>
        </p>
      ) : null}
    </div>
  ) : null;

/** A copy button for the input `target` (hidden until the script runs: without it the text is selectable). */
export const CopyButton = ({ target, label = 'Copy' }: { target: string; label?: string }) => (
  <button type="button" class="secondary" data-copy={target} hidden>
    {label}
  </button>
);

/** An instant as `<time datetime=UTC ISO>`: readable UTC without JavaScript, the viewer's time zone with it. */
export function LocalTime({ at, date, empty = '' }: { at: Date | string | number | null | undefined; date?: boolean; empty?: string }) {
  if (at === null || at === undefined || at === '') return <>{empty}</>;
  const d = new Date(at);
  if (Number.isNaN(d.getTime())) return <>{empty}</>;
  return (
    <time datetime={d.toISOString()} data-local={date ? 'date' : 'datetime'}>
      {formatDate(d, !date)}
    </time>
  );
}

/** A table in its own horizontal scroller (focusable so keyboard users can scroll it), so the page never overflows. */
export const ScrollTable = ({ label, children }: { label: string; children: ComponentChildren }) => (
  <div class="table-scroll" role="region" aria-label={label} tabindex={0}>
    {children}
  </div>
);

/** A validator's message in words a person reads ("must be >= 0" → "Must be 0 or more."). */
export function humanProblem(msg: string): string {
  const rules: [RegExp, (m: RegExpExecArray) => string][] = [
    [/^must be (number|integer)$/, (m) => (m[1] === 'integer' ? 'Enter a whole number.' : 'Enter a number.')],
    [/^must be >= (\S+)$/, (m) => `Must be ${m[1]} or more.`],
    [/^must be > (\S+)$/, (m) => `Must be more than ${m[1]}.`],
    [/^must be <= (\S+)$/, (m) => `Must be ${m[1]} or less.`],
    [/^must NOT have fewer than (\d+) characters$/, (m) => `Use at least ${m[1]} characters.`],
    [/^must NOT have more than (\d+) characters$/, (m) => `Use at most ${m[1]} characters.`],
    [/^must have required property '?([^']+)'?$/, (m) => `${m[1]!.replace(/_/g, ' ')} is required.`],
    [/^must be equal to one of the allowed values$/, () => 'Pick one of the offered values.'],
    [/^must match format "?(\w+)"?$/, (m) => `Enter a valid ${m[1] === 'uri' ? 'URL' : m[1]}.`],
    [/^must be string$/, () => 'Enter text.'],
    [/^must be boolean$/, () => 'Tick or untick it.'],
  ];
  for (const [re, say] of rules) {
    const m = re.exec(msg);
    if (m) return say(m);
  }
  return msg ? msg[0]!.toUpperCase() + msg.slice(1) : msg;
}

/** A field of an answer as text (messages built from answers never print "[object Object]"). */
export const textOf = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : fallback);
