// One REST implementation serves both the pages' plain HTML forms and JSON callers (htmx, scripts): a form post
// (url-encoded or multipart) gets its fields coerced to the route's schema types, and the answer becomes a page:
// a 303 back to `return_to` on success, the secret once when the answer carries one (webhook secret, purchase API
// key), or the error's detail with its status (422 lists the fields) and a link back. JSON callers get JSON.
import { AppError } from '../../lib/errors.js';
import { safeUrl } from '../../lib/html.js';
import type { AppContext, Middleware } from '../context.js';
import { sendPage } from '../send-page.js';
import { COPY_SCRIPT, CopyButton } from './copy-button.js';
import { safeReturnTo } from './session.js';

/** Fields of an answer that are shown once and never again. */
const SECRET_FIELDS: Record<string, string> = {
  webhook_secret: 'Webhook secret', purchase_api_key: 'Purchase API key', agent_key: 'Agent key',
};

/** A 402 (the wallet cannot cover it) names the agent's top-up endpoint; the human tops up on the wallet page. */
const TopupHint = () => <p id="topup-hint" class="notice">The wallet's safe balance is too low. <a href="/dashboard/wallet">Top up the wallet</a> (the top-up form is on the wallet page), then try again.</p>;

export const isFormPost = (ctx: AppContext): boolean => ctx.method !== 'GET' && ctx.is('application/x-www-form-urlencoded', 'multipart/form-data') !== false;

interface SchemaLike { properties?: Record<string, { type?: string | string[] }> }

/** Form fields are strings: numbers and booleans of the schema are converted, empty optional fields dropped. */
export function coerceForm(schema: SchemaLike | undefined, form: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(form)) {
    if (key === 'csrf' || key === 'return_to') continue;
    if (value === '') continue;
    const type = schema?.properties?.[key]?.type;
    const types = Array.isArray(type) ? type : [type];
    if (typeof value === 'string' && (types.includes('number') || types.includes('integer')) && /^-?\d+(\.\d+)?$/.test(value.trim())) out[key] = Number(value);
    else if (typeof value === 'string' && types.includes('boolean') && /^(true|false|on)$/.test(value)) out[key] = value !== 'false';
    else out[key] = value;
  }
  return out;
}

/** An error's detail: the 422 field list as a list, anything else as a sentence. */
export function Problems({ err }: { err: AppError }) {
  const detail = err.detail;
  if (Array.isArray(detail)) {
    return <ul>{detail.map((p: { loc?: (string | number)[]; msg?: string }) => <li><strong>{String(p.loc?.at(-1) ?? '')}</strong>: {p.msg ?? ''}</li>)}</ul>;
  }
  return <p>{typeof detail === 'string' ? detail : JSON.stringify(detail)}</p>;
}

/** `reshape` turns a page's form fields into the route's body (a textarea into a list, ...) after the coercion. */
export function formReply(schema?: object, reshape?: (form: Record<string, unknown>) => Record<string, unknown>): Middleware {
  return async (ctx, next) => {
    if (!isFormPost(ctx)) return next();
    const form = (ctx.state.body ?? {}) as Record<string, unknown>;
    const back = safeReturnTo(form.return_to ?? ctx.get('referer')?.replace(/^https?:\/\/[^/]+/, ''));
    try {
      if (ctx.is('application/x-www-form-urlencoded')) {
        const coerced = coerceForm(schema, form);
        ctx.state.body = reshape ? reshape(coerced) : coerced;
      }
      await next();
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      ctx.set(err.headers);
      sendPage(ctx, err.status, {
        title: 'Not done', lang: 'en',
        body: <><h1>That did not work</h1><div role="alert" class="error"><Problems err={err} /></div>{err.status === 402 ? <TopupHint /> : null}<p><a href={safeUrl(back)}>Back</a></p></>,
      });
      return;
    }
    const body = ctx.body as Record<string, unknown> | undefined;
    const secrets = Object.entries(SECRET_FIELDS).filter(([k]) => typeof body?.[k] === 'string');
    if (secrets.length > 0) {
      ctx.set('Cache-Control', 'no-store');
      sendPage(ctx, 200, {
        title: 'Copy it now', lang: 'en', scripts: [COPY_SCRIPT],
        body: <>
          <h1>Copy it now</h1><p>Shown once: this page is the only time you see it. Store it where your server keeps secrets.</p>
          {secrets.map(([k, label]) => <p><label for={k}>{label}</label><input id={k} readonly class="secret" value={body![k] as string} /> <CopyButton target={k} /></p>)}
          <p><a href={safeUrl(back)}>Done, back</a></p>
        </>,
      });
      return;
    }
    ctx.status = 303;
    ctx.redirect(back);
  };
}
