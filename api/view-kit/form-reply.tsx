// One REST implementation serves both the pages' plain HTML forms and JSON callers (htmx, scripts): a form post
// (url-encoded or multipart) gets its fields coerced to the route's schema types, and the answer is always a 303
// (Post/Redirect/Get, api/view-kit/flash.ts): back to `return_to` with a message saying what happened, or, when
// the answer carries a secret (webhook secret, purchase API key), to GET /dashboard/shown-once, which shows it once.
// A refused form goes back too, with each field's error in words and what was typed (the page's `Field`s show them
// beside the fields). A destructive route asks first (confirm.tsx). JSON callers get JSON.
import { AppError, ValidationError, type FieldProblem } from '../../errors/http-errors.js';
import { assertValid } from '../../lib/validation.js';
import { forPeople, formStateOf, problemsInWords, SAID, type FormWords } from './form-errors.js';
import { safeUrl } from './html.js';
import { Flash, type FlashMessage } from './ui.js';
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

/** Statuses of an upload's file itself (too large, not the right kind): shown under the form's file field. */
const FILE_STATUSES = new Set([413, 415]);

/**
 * A refused request, for people: a sentence and one line per field, and per field its error in words (for the page's
 * fields, form-errors.tsx); `order` is the form's field order. A 402 (the wallet cannot cover it) offers the wallet's
 * top-up page, where the agent's text names its REST call.
 */
function problemsOf(err: AppError, words?: FormWords, order: string[] = []): { flash: FlashMessage; errors: Record<string, string> } {
  const detail = err.detail;
  if (Array.isArray(detail)) {
    const { errors, lines } = problemsInWords(detail as FieldProblem[], words, order);
    const n = lines.length;
    return {
      errors,
      flash: { tone: 'bad', text: `Not saved: ${n === 1 ? 'one field needs' : `${n} fields need`} a change (marked below).`, lines },
    };
  }
  const text = forPeople(typeof detail === 'string' ? detail : JSON.stringify(detail));
  const field = FILE_STATUSES.has(err.status) && order.includes('file') ? 'file' : err.status === 409 ? words?.conflict : undefined;
  if (field) {
    const { errors, lines } = problemsInWords([{ loc: ['body', field], msg: text, type: SAID }], words, order);
    return { errors, flash: { tone: 'bad', text: 'Not saved: one field needs a change (marked below).', lines } };
  }
  const action = err.status === 402 ? { href: '/dashboard/wallet#topup', label: 'Top up the wallet, then try again' } : undefined;
  return { errors: {}, flash: { tone: 'bad', text, ...(action ? { action } : {}) } };
}

export interface FormReplyOptions {
  /** Turns the page's form fields into the route's body (a textarea into a list, ...) after the coercion. */
  reshape?: (form: Record<string, unknown>) => Record<string, unknown>;
  /** A destructive route: the question to ask first (undefined: this post is not destructive, e.g. unblocking). */
  confirm?: (form: Record<string, unknown>) => Danger | undefined;
  /** What the page says after success (default "Done."). */
  done?: (answer: Record<string, unknown>) => FlashMessage;
  /** The form's labels and rules in words (form-errors.tsx). */
  words?: FormWords;
  /** Rules of the form the schema cannot say (a code's length after cleanup), listed with the schema's problems. */
  checks?: (body: Record<string, unknown>) => FieldProblem[];
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
        if (opts.checks) assertAll(schema, ctx.state.body as Record<string, unknown>, opts.checks);
      }
      await next();
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      // A script posting an upload and asking for JSON gets the JSON refusal with its status.
      if (ctx.is('multipart/form-data') && ctx.accepts('html', 'json') === 'json') throw err;
      // An upload's fields are read by its handler (api/middleware/multipart.ts): they are what was typed.
      const typed = ctx.is('multipart/form-data') ? ((ctx.state.uploadFields ?? {}) as Record<string, unknown>) : form;
      // Refusals of the request itself (CSRF, a body that is no form) answer a page with their status: a forged request
      // must not leave anything for the session's next page. An upload's file refused (too large, not the kind asked
      // for) goes back to its form like any other field.
      if (!BACK_WITH_ERRORS.has(err.status) && !(ctx.state.uploadFields && FILE_STATUSES.has(err.status))) return errorPage(ctx, err, back);
      const { flash, errors } = problemsOf(err, opts.words, Object.keys(typed));
      // A form that names itself lists its problems above itself (layout.tsx PostForm); others in the page's flash.
      const state = formStateOf(errors, typed);
      const listed = typeof typed[FORM_ID] === 'string' && Object.keys(errors).length > 0;
      setFlash(ctx, listed ? { form: { ...state, lines: flash.lines } } : { flash, form: state });
      redirectBack(ctx, typed.return_to === undefined ? back : safeReturnTo(typed.return_to));
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

/** The schema's problems and the form's own checks' together, so the page lists every problem at once. */
function assertAll(schema: object | undefined, body: Record<string, unknown>, checks: (b: Record<string, unknown>) => FieldProblem[]) {
  const problems = checks(body);
  if (problems.length === 0) return;
  try {
    if (schema) assertValid(schema, body);
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    const own = new Set(problems.map((p) => String(p.loc.at(-1))));
    problems.push(...err.problems.filter((p) => !own.has(String(p.loc.at(-1)))));
  }
  throw new ValidationError(problems);
}

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
