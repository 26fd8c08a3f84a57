// The digest's unsubscribe link (lib/creator-unsubscribe.ts): GET shows one button, its POST stops the digests, so
// a mail scanner following the link changes nothing. The signature is the capability; no session is needed.
import { unsubscribeFromDigest } from '../../actions/creators.js';
import { unsubscribeMatches } from '../../lib/creator-unsubscribe.js';
import { PORTAL_PATH } from '../auth/authenticate.js';
import type { AppContext } from '../context.js';
import { field } from '../view-kit/sign-in-forms.js';
import { publicPortalPage } from './layout.js';

export const UNSUBSCRIBE_PATH = `${PORTAL_PATH}/unsubscribe`;

function signed(ctx: AppContext, c: unknown, sig: unknown): c is string {
  const key = ctx.deps.config.SVC_MASTER_KEY;
  return Boolean(key) && unsubscribeMatches(key!, c, sig);
}

const invalid = (ctx: AppContext) =>
  publicPortalPage(
    ctx,
    400,
    'Unsubscribe',
    <p role="alert">This unsubscribe link is incomplete or altered: use the link of a digest email as it arrived.</p>,
  );

export async function showUnsubscribe(ctx: AppContext): Promise<void> {
  const { c, sig } = ctx.query;
  if (!signed(ctx, c, sig)) return invalid(ctx);
  publicPortalPage(
    ctx,
    200,
    'Unsubscribe from earnings digests',
    <>
      <p>Stop the daily email about your commissions and payouts? The portal keeps showing everything.</p>
      <form method="post" action={UNSUBSCRIBE_PATH}>
        <input type="hidden" name="c" value={c} />
        <input type="hidden" name="sig" value={String(sig)} />
        <button type="submit">Unsubscribe</button>
      </form>
    </>,
  );
}

export async function unsubscribe(ctx: AppContext): Promise<void> {
  const c = field(ctx.state.body, 'c');
  if (!signed(ctx, c, field(ctx.state.body, 'sig'))) return invalid(ctx);
  await unsubscribeFromDigest(ctx.deps, { creatorId: c });
  publicPortalPage(
    ctx,
    200,
    'Unsubscribed',
    <p role="status">
      You will get no more earnings digests. Your commissions and payouts stay in the <a href={PORTAL_PATH}>creator portal</a>.
    </p>,
  );
}
