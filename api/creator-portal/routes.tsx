// The creator portal's table of contents (docs/creator-portal.md), under {DASHBOARD_URL}/creator: signing in by a
// mailed link, the creator's campaigns, one campaign with its QR code, payout statements (page and CSV), featured
// asset files, and the digest's unsubscribe. Every path admits only a creator session (auth.ts); every read is keyed
// by the signed-in creator, so another creator's or organization's ids are 404.
import { Router } from '@koa/router';
import { findCreatorAsset } from '../../db/creator-portal.js';
import { NotFoundError } from '../../errors/http-errors.js';
import { PORTAL_PATH } from '../auth/authenticate.js';
import type { AppContext, RequestState } from '../context.js';
import { sendAssetFile } from '../send-asset-file.js';
import { payoutConnectRouter, PAYOUT_ACCOUNT_PATH } from './payout-routes.js';
import { checkCreatorCsrf, portalOnlyCreators, signedInCreator } from './auth.js';
import { campaignPage, campaignQr } from './campaign-page.js';
import { portalHome } from './home-page.js';
import { portalPage } from './layout.js';
import { payoutAccountPage } from './payout-account.js';
import * as signIn from './sign-in.js';
import { statementCsv, statementPage } from './statements.js';
import { showUnsubscribe, unsubscribe, UNSUBSCRIBE_PATH } from './unsubscribe.js';

async function assetFile(ctx: AppContext): Promise<void> {
  const s = await signedInCreator(ctx);
  if (!s) return;
  const asset = await findCreatorAsset(ctx.deps.db, s.creator.id, ctx.params.asset_id as string);
  if (!asset) throw new NotFoundError('No such marketing asset among your campaigns.');
  await sendAssetFile(ctx, asset);
}

/** A portal page's 404 is a page in the portal's shell (reads of files stay JSON, like the dashboard REST). */
async function notFoundAsPage(ctx: AppContext, next: () => Promise<unknown>): Promise<void> {
  try {
    await next();
  } catch (err) {
    if (!(err instanceof NotFoundError) || !ctx.accepts('html') || /\.(csv|svg)$|\/file$/.test(ctx.path)) throw err;
    const s = await signedInCreator(ctx);
    if (s)
      portalPage(
        ctx,
        s,
        404,
        'Not found',
        <>
          <p role="alert">{err.detail as string}</p>
          <p>
            <a href={PORTAL_PATH}>Back to your campaigns</a>
          </p>
        </>,
      );
  }
}

/** The payout-account connect flow (issue 30) for the signed-in creator; a POST needs the creator session's CSRF token. */
export function portalPayoutRoutes(): Router<RequestState, AppContext> {
  return payoutConnectRouter({
    prefix: PAYOUT_ACCOUNT_PATH,
    creatorOf: async (ctx) => {
      const s = await signedInCreator(ctx);
      if (s && ctx.method === 'POST') checkCreatorCsrf(ctx);
      return s?.creator.id;
    },
    // Back from onboarding: the page that says what happened and what is still needed.
    afterReturn: () => `${PAYOUT_ACCOUNT_PATH}?from=onboarding`,
    invalidForm: (ctx, input) => payoutAccountPage(ctx, input),
  });
}

export function portalRoutes(): Router<RequestState, AppContext> {
  const router = new Router<RequestState, AppContext>({ prefix: PORTAL_PATH });
  router.use(portalOnlyCreators, notFoundAsPage);
  router.get('/sign-in', signIn.showSignIn);
  router.post('/sign-in', signIn.requestLink);
  router.get('/sign-in/confirm', signIn.showConfirm);
  router.post('/sign-in/confirm', signIn.confirm);
  router.post('/sign-out', signIn.signOut);
  router.get(UNSUBSCRIBE_PATH.slice(PORTAL_PATH.length), showUnsubscribe);
  router.post(UNSUBSCRIBE_PATH.slice(PORTAL_PATH.length), unsubscribe);

  router.get('/', portalHome);
  router.get('/payout-account', (ctx) => payoutAccountPage(ctx));
  router.get('/campaigns/:campaign_id', campaignPage);
  router.get('/campaigns/:campaign_id/qr.svg', campaignQr);
  router.get('/payouts/:payout_id', statementPage);
  router.get('/payouts/:payout_id/statement.csv', statementCsv);
  router.get('/assets/:asset_id/file', assetFile);
  return router;
}
