// GET /dashboard/shown-once?back=…: where a post that made a secret (an app's webhook secret and purchase API key, a
// regenerated one, an agent key) redirects. The secret travels in the session's sealed flash cookie (flash.ts), is
// shown here once with a copy button and the next step, and the cookie is deleted as it is read: a reload, the
// back button or another tab shows "nothing to show", never the secret. The page is never cached.
import { safeUrl } from '../view-kit/html.js';
import { CopyButton } from '../view-kit/ui.js';
import type { AppContext } from '../context.js';
import type { ShownOnce } from '../view-kit/flash.js';
import { dashboardPage } from '../view-kit/layout.js';
import { signedIn } from './signed-in.js';
import { safeReturnTo } from '../view-kit/sign-in-forms.js';

/** What to do with each secret right now. */
function NextStep({ secret, base }: { secret: ShownOnce; base: string }) {
  switch (secret.name) {
    case 'webhook_secret':
      return (
        <p>
          Next: paste it into your subscription provider's webhook settings as the <code>Authorization</code> value, then send the
          provider's test event. Calls with the old secret are refused from now on.
        </p>
      );
    case 'purchase_api_key':
      return (
        <p>
          Next: store it in your server's secrets and send it as <code>Authorization: Bearer …</code> to the purchase endpoint shown on the
          app's setup page. The old key no longer works.
        </p>
      );
    case 'agent_key':
      return (
        <p>
          Next: give it to your agent as <code>Authorization: Bearer …</code> on <code>{base}/mcp</code> or <code>{base}/api/agent</code>.
        </p>
      );
    default:
      return null;
  }
}

/**
 * The copy button's words: short and the same width whatever the secret's label holds (an agent key's label lists
 * its scopes, which as a button's words widened the page past the screen).
 */
const COPY_LABEL: Record<string, string> = {
  webhook_secret: 'Copy webhook secret',
  purchase_api_key: 'Copy purchase API key',
  agent_key: 'Copy agent key',
};

export async function shownOncePage(ctx: AppContext): Promise<void> {
  const s = await signedIn(ctx);
  if (!s) return;
  const back = safeReturnTo(ctx.query.back);
  const secrets = s.flash?.secrets ?? [];
  if (secrets.length === 0) {
    return dashboardPage(
      ctx,
      s,
      200,
      'Nothing to show',
      <>
        <p>Secrets are shown once, right after they are made, and this one has been shown already (or it is more than two minutes old).</p>
        <p>If you did not copy it, make a new one (regenerate it) from the page you came from.</p>
        <p>
          <a href={safeUrl(back)}>Back</a>
        </p>
      </>,
    );
  }
  dashboardPage(
    ctx,
    s,
    200,
    'Copy it now',
    <>
      <p>
        <strong>Shown once:</strong> this is the only time you see {secrets.length > 1 ? 'these' : 'it'}. Leaving or reloading this page
        hides {secrets.length > 1 ? 'them' : 'it'} for good.
      </p>
      {secrets.map((x) => (
        <section>
          <label for={x.name}>{x.label}</label>
          <div class="actions">
            <input id={x.name} readonly class="secret" value={x.value} />
            <CopyButton target={x.name} label={COPY_LABEL[x.name] ?? 'Copy'} />
          </div>
          <NextStep secret={x} base={ctx.deps.config.BASE_URL} />
        </section>
      ))}
      <p>
        <a class="button" href={safeUrl(back)}>
          I stored it, continue
        </a>
      </p>
    </>,
  );
}
