// "Confirm with one button": a link that spends a single-use token (email verification, and the creator portal's
// sign-in link) opens a page with a single button that POSTs, because mail scanners and link previews GET every
// link they see: a GET reads the token (never spends it), only the POST spends it. The pair here is generic: the
// page (title, explanation, button label, form action) and the two handlers around a caller's describe/confirm.
import type { ComponentChildren } from 'preact';
import type { AppContext } from '../../context.js';
import { PublicForm, simplePage } from './accounts.js';
import { checkLoginCsrf } from '../../view-kit/sign-in-forms.js';

export interface ConfirmCopy {
  title: string;
  explanation: ComponentChildren;
  button: string;
  /** Where the button posts (the token's own path, so the POST names it without a hidden field). */
  action: string;
}

/** The page: the explanation and one button posting to `action` with the pre-session CSRF token. */
function confirmPage(ctx: AppContext, copy: ConfirmCopy, status = 200): void {
  simplePage(
    ctx,
    status,
    copy.title,
    <>
      <p>{copy.explanation}</p>
      <PublicForm ctx={ctx} action={copy.action}>
        <button type="submit">{copy.button}</button>
      </PublicForm>
    </>,
  );
}

export interface ConfirmStep {
  /** The token in the request (path or query), or undefined. */
  tokenOf(ctx: AppContext): string | undefined;
  /** Reads the token WITHOUT spending it: the page's words, or undefined when it is unknown, used or expired. */
  describe(ctx: AppContext, token: string): Promise<ConfirmCopy | undefined>;
  /** Spends the token (in one statement: a double click spends it once) and answers; false when it was not live. */
  confirm(ctx: AppContext, token: string): Promise<boolean>;
  /** The answer for an unknown, used or expired token (status 410). */
  invalid(ctx: AppContext): void;
}

/** GET shows the one-button page, POST (CSRF-checked) spends the token. */
export function confirmStepHandlers(step: ConfirmStep): {
  show: (ctx: AppContext) => Promise<void>;
  submit: (ctx: AppContext) => Promise<void>;
} {
  return {
    show: async (ctx) => {
      const token = step.tokenOf(ctx);
      const copy = token ? await step.describe(ctx, token) : undefined;
      if (!copy) return step.invalid(ctx);
      // Never cached or prefetched into a shared cache: the page names a live token.
      ctx.set('Cache-Control', 'no-store');
      ctx.set('Referrer-Policy', 'no-referrer');
      confirmPage(ctx, copy);
    },
    submit: async (ctx) => {
      checkLoginCsrf(ctx);
      const token = step.tokenOf(ctx);
      if (!token || !(await step.confirm(ctx, token))) step.invalid(ctx);
    },
  };
}
