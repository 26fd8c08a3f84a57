// Destructive actions (regenerate a secret, revoke a key or an agent's access, block a code, withdraw an
// invitation, void an award) take two steps. The button's form posts without `confirmed`; where JavaScript runs,
// api/dashboard/browser/dashboard.js opens the <dialog> rendered beside it instead, whose own form carries
// `confirmed=yes`; without JavaScript the server answers the unconfirmed post with a confirm page holding the same
// form. The server is the rule: a page form post without `confirmed=yes` never acts (`needsConfirmation`). JSON
// callers (scripts with the CSRF header) are deliberate by construction and are not asked.
import { createHash } from 'node:crypto';
import { safeUrl } from './html.js';
import type { AppContext } from '../context.js';
import { sendPage } from '../send-page.js';
import { CsrfField, Hidden, type SignedIn } from './layout.js';
import { safeReturnTo } from './sign-in-forms.js';

const CONFIRMED = 'confirmed';

/** A page's form post (url-encoded or multipart), as opposed to a JSON call. */
export const isFormPost = (ctx: AppContext): boolean =>
  ctx.method !== 'GET' && ctx.is('application/x-www-form-urlencoded', 'multipart/form-data') !== false;

export interface Danger {
  /** The question, e.g. "Regenerate the webhook secret?" */
  question: string;
  /** What happens, in words: what stops working and what to do next. */
  detail: string;
  /** The button's words, on both steps. */
  label: string;
}

interface ConfirmFormProps extends Danger {
  s: SignedIn;
  action: string;
  returnTo?: string;
  fields?: Record<string, string>;
}

/** A danger button whose post is confirmed first (a dialog with JavaScript, the confirm page without). */
export function ConfirmForm({ s, action, returnTo, fields = {}, question, detail, label }: ConfirmFormProps) {
  const all = { return_to: returnTo, ...fields };
  const id = `confirm-${createHash('sha256')
    .update(`${action}?${JSON.stringify(all)}`)
    .digest('hex')
    .slice(0, 12)}`;
  return (
    <>
      <form method="post" action={action} data-confirm={id} class="confirm">
        <CsrfField s={s} />
        <Hidden fields={all} />
        <button type="submit" class="danger">
          {label}
        </button>
      </form>
      <dialog id={id} aria-labelledby={`${id}-title`}>
        <form method="post" action={action}>
          <CsrfField s={s} />
          <Hidden fields={{ ...all, [CONFIRMED]: 'yes' }} />
          <h2 id={`${id}-title`}>{question}</h2>
          <p>{detail}</p>
          <div class="actions">
            <button type="button" class="secondary" data-close>
              Cancel
            </button>
            <button type="submit" class="danger">
              {label}
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}

/**
 * True (after answering the confirm page) when this is a page form post without `confirmed=yes`: the caller stops.
 * The page re-posts every field it was sent, so the confirmed post is the same request plus the confirmation.
 */
export function needsConfirmation(
  ctx: AppContext,
  danger: Danger,
  form: Record<string, unknown> = (ctx.state.body ?? {}) as Record<string, unknown>,
): boolean {
  if (!isFormPost(ctx) || form[CONFIRMED] === 'yes') return false;
  const fields = Object.fromEntries(
    Object.entries(form).filter((e): e is [string, string] => typeof e[1] === 'string' && e[0] !== CONFIRMED),
  );
  const back = safeReturnTo(fields.return_to ?? ctx.get('referer')?.replace(/^https?:\/\/[^/]+/, ''));
  ctx.set('Cache-Control', 'no-store');
  sendPage(ctx, 200, {
    title: danger.question,
    lang: 'en',
    formAction: "'self'",
    body: (
      <>
        <h1>{danger.question}</h1>
        <p>{danger.detail}</p>
        <form method="post" action={ctx.originalUrl}>
          <Hidden fields={{ ...fields, [CONFIRMED]: 'yes' }} />
          <div class="actions">
            <button type="submit" class="danger">
              {danger.label}
            </button>
            <a class="button secondary" href={safeUrl(back)}>
              Cancel
            </a>
          </div>
        </form>
      </>
    ),
  });
  return true;
}
