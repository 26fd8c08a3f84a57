// One REST implementation serves both the pages' plain HTML forms and JSON callers (htmx, scripts): a form post
// (url-encoded or multipart) gets its fields coerced to the route's schema types, and the answer is always a 303
// (Post/Redirect/Get, api/view-kit/flash.ts): back to `return_to` with a message saying what happened, or, when
// the answer carries a secret (webhook secret, purchase API key), to GET /dashboard/shown-once, which shows it once.
// A refused form goes back too, with each field's error in words and what was typed (the page's `Field`s show them
// beside the fields). A destructive route asks first (confirm.tsx). JSON callers get JSON.
import { AppError } from '../../errors/http-errors.js';
import { safeUrl } from './html.js';
import { Flash, humanProblem, type FlashMessage } from './ui.js';
import { sendPage } from '../send-page.js';
import type { AppContext, Middleware } from '../context.js';
import { needsConfirmation, isFormPost, type Danger } from './confirm.js';
import { setFlash, type ShownOnce } from './flash.js';
import { safeReturnTo } from './sign-in-forms.js';

export { isFormPost } from './confirm.js';

/** Fields of an answer that are shown once and never again. */
const SECRET_FIELDS: Record<string, string> = {
  webhook_secret: 'Webhook secret',
  purchase_api_key: 'Purchase API key',
  agent_key: 'Agent key',
};

/** Typed values never kept for the page that shows the error (secrets, and the form's own plumbing). */
const NOT_KEPT = /^(csrf|return_to|confirmed|password|.*secret.*|.*private_key.*)$/;

/** Names which form of a page a post came from, so a failed form's errors show in that form only (layout.tsx `stateFor`). */
const FORM_ID = 'form_id';

interface SchemaLike {
  properties?: Record<string, { type?: string | string[] }>;
}

/**
 * Form fields are strings: numbers and booleans of the schema are converted, empty optional fields dropped. A value
 * that is not a number stays a string, so the schema refuses it by name (nothing is silently coerced).
 */
function coerceForm(schema: SchemaLike | undefined, form: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(form)) {
    if (key === 'csrf' || key === 'return_to' || key === 'confirmed' || key === FORM_ID) continue;
    if (value === '') continue;
    const type = schema?.properties?.[key]?.type;
    const types = Array.isArray(type) ? type : [type];
    if (typeof value === 'string' && (types.includes('number') || types.includes('integer')) && /^-?\d+(\.\d+)?$/.test(value.trim()))
      out[key] = Number(value);
    else if (typeof value === 'string' && types.includes('boolean') && /^(true|false|on)$/.test(value)) out[key] = value !== 'false';
    else out[key] = value;
  }
  return out;
}

/** "holding_period_days" → "Holding period days". */
const fieldWords = (name: string): string => {
  const w = name.replace(/_/g, ' ');
  return w[0]!.toUpperCase() + w.slice(1);
};

/** A refused request, for people: a sentence, one line per field, and per field its error (for the page's fields). */
function problemsOf(err: AppError): { flash: FlashMessage; errors: Record<string, string> } {
  const detail = err.detail;
  const errors: Record<string, string> = {};
  if (Array.isArray(detail)) {
    for (const p of detail as { loc?: (string | number)[]; msg?: string }[]) {
      const name = String(p.loc?.at(-1) ?? '');
      errors[name] ??= humanProblem(p.msg ?? '');
    }
    return {
      errors,
      flash: {
        tone: 'bad',
        text: 'Not saved: please correct the fields below.',
        lines: Object.entries(errors).map(([k, v]) => `${fieldWords(k)}: ${v}`),
      },
    };
  }
  const text = typeof detail === 'string' ? detail : JSON.stringify(detail);
  // A 402 (the wallet cannot cover it) names the agent's top-up endpoint; the human tops up on the wallet page.
  const action =
    err.status === 402 ? { href: '/dashboard/wallet', label: 'Top up the wallet on the wallet page, then try again' } : undefined;
  return { errors, flash: { tone: 'bad', text, ...(action ? { action } : {}) } };
}

const keptValues = (form: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(form).filter((e): e is [string, string] => typeof e[1] === 'string' && !NOT_KEPT.test(e[0])));

export interface FormReplyOptions {
  /** Turns the page's form fields into the route's body (a textarea into a list, ...) after the coercion. */
  reshape?: (form: Record<string, unknown>) => Record<string, unknown>;
  /** A destructive route: the question to ask first (undefined: this post is not destructive, e.g. unblocking). */
  confirm?: (form: Record<string, unknown>) => Danger | undefined;
  /** What the page says after success (default "Done."). */
  done?: (answer: Record<string, unknown>) => FlashMessage;
}

function secretsOf(answer: Record<string, unknown> | undefined): ShownOnce[] {
  return Object.entries(SECRET_FIELDS)
    .filter(([k]) => typeof answer?.[k] === 'string')
    .map(([name, label]) => ({ name, label, value: answer![name] as string }));
}

/** Where a secret is shown once after a post that made it: GET, never the POST's own answer. */
export function shownOnceUrl(back: string): string {
  return `/dashboard/shown-once?back=${encodeURIComponent(back)}`;
}

export function formReply(schema?: object, opts: FormReplyOptions = {}): Middleware {
  return async (ctx, next) => {
    if (!isFormPost(ctx)) return next();
    const form = (ctx.state.body ?? {}) as Record<string, unknown>;
    const danger = opts.confirm?.(form);
    if (danger && needsConfirmation(ctx, danger, form)) return;
    const back = safeReturnTo(form.return_to ?? ctx.get('referer')?.replace(/^https?:\/\/[^/]+/, ''));
    try {
      if (ctx.is('application/x-www-form-urlencoded')) {
        const coerced = coerceForm(schema, form);
        ctx.state.body = opts.reshape ? opts.reshape(coerced) : coerced;
      }
      await next();
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      // Uploads and refusals of the request itself (CSRF, size, type) answer a page with their status: there is no
      // typed value to keep, and a forged request must not leave anything for the session's next page.
      if (!ctx.is('application/x-www-form-urlencoded') || !BACK_WITH_ERRORS.has(err.status)) return errorPage(ctx, err, back);
      const { flash, errors } = problemsOf(err);
      setFlash(ctx, { flash, form: { errors, values: keptValues(form) } });
      redirectBack(ctx, back);
      return;
    }
    const answer = ctx.body as Record<string, unknown> | undefined;
    const secrets = secretsOf(answer);
    if (secrets.length > 0) {
      setFlash(ctx, { secrets });
      return redirectBack(ctx, shownOnceUrl(back));
    }
    setFlash(ctx, { flash: opts.done?.(answer ?? {}) ?? { tone: 'ok', text: 'Done.' } });
    redirectBack(ctx, back);
  };
}

/** Refusals of what the form said (validation, conflicts, money, a missing row): shown beside the form they came from. */
const BACK_WITH_ERRORS = new Set([402, 404, 409, 422]);

function errorPage(ctx: AppContext, err: AppError, back: string): void {
  const { flash } = problemsOf(err);
  ctx.set(err.headers);
  sendPage(ctx, err.status, {
    title: 'Not done',
    lang: 'en',
    body: (
      <>
        <h1>That did not work</h1>
        <Flash flash={flash} />
        <p>
          <a href={safeUrl(back)}>Back</a>
        </p>
      </>
    ),
  });
}

function redirectBack(ctx: AppContext, to: string): void {
  ctx.set('Cache-Control', 'no-store');
  ctx.status = 303;
  ctx.redirect(to);
}

/** An error shown on the page that answers it (a signed link's upload, a report's period): the sentence and the field lines. */
export function Problems({ err }: { err: AppError }) {
  const { flash } = problemsOf(err);
  return (
    <>
      <p>{flash.text}</p>
      {flash.lines?.length ? (
        <ul>
          {flash.lines.map((l) => (
            <li>{l}</li>
          ))}
        </ul>
      ) : null}
    </>
  );
}
