// The connect flow's routes, for the creator portal to mount (the lead wires them behind the portal's creator
// session and its CSRF check; `creatorOf` answers the signed-in creator's id, or undefined for 401):
//   POST {prefix}/connect   start: opens the account if needed, 303 to a fresh onboarding link (body: country); a bad
//                           country is 422: the JSON detail for a JSON client, the page `invalidForm` draws for a form
//   GET  {prefix}/refresh   Stripe's refresh_url (the link expired or was used): 303 to a new link
//   GET  {prefix}/return    Stripe's return_url: the state read from Stripe, then 303 to `afterReturn`
//   GET  {prefix}/status    the account's state as JSON
import { Router } from '@koa/router';
import { UnauthorizedError, ValidationError } from '../../errors/http-errors.js';
import { PORTAL_PATH } from '../auth/authenticate.js';
import type { AppContext, RequestState } from '../context.js';
import { connectCountry, refreshPayoutAccount, connectPayoutAccount, type ConnectUrls } from '../../actions/payout-accounts.js';

/** Where the creator portal mounts the connect flow: under the portal's cookie path, so the creator session reaches it. */
export const PAYOUT_ACCOUNT_PATH = `${PORTAL_PATH}/payout-account`;

export interface PayoutConnectRouterOptions {
  creatorOf: (ctx: AppContext) => Promise<string | undefined> | string | undefined;
  /** Default `/creator/payouts`. */
  prefix?: string;
  /** Where the creator lands after onboarding; default `{DASHBOARD_URL}/creator` (with `?payouts=ready|incomplete`). */
  afterReturn?: (ctx: AppContext) => string;
  /** A form post with a bad country: answer the form again (status 422 set) with what was sent and the message in words. */
  invalidForm?: (ctx: AppContext, input: { country: string; message: string }) => Promise<void>;
}

export function payoutConnectRouter(opts: PayoutConnectRouterOptions): Router<RequestState, AppContext> {
  const prefix = opts.prefix ?? '/creator/payouts';
  const router = new Router<RequestState, AppContext>({ prefix });
  const creator = async (ctx: AppContext): Promise<string> => {
    const id = await opts.creatorOf(ctx);
    if (!id) throw new UnauthorizedError('Sign in as a creator to connect a payout account.');
    return id;
  };
  const urls = (ctx: AppContext): ConnectUrls => ({
    returnUrl: `${ctx.deps.config.BASE_URL}${prefix}/return`,
    refreshUrl: `${ctx.deps.config.BASE_URL}${prefix}/refresh`,
  });
  const deps = (ctx: AppContext) => ({ db: ctx.deps.db, config: ctx.deps.config });

  router.post('/connect', async (ctx) => {
    const creatorId = await creator(ctx);
    const raw = (ctx.state.body as Record<string, unknown> | undefined)?.country;
    let country: string;
    try {
      country = connectCountry(raw, ctx.deps.config);
    } catch (err) {
      if (!(err instanceof ValidationError) || !opts.invalidForm || !ctx.is('urlencoded')) throw err;
      ctx.status = 422;
      return opts.invalidForm(ctx, { country: typeof raw === 'string' ? raw : '', message: err.problems[0]?.msg ?? 'Choose a country.' });
    }
    const started = await connectPayoutAccount(deps(ctx), creatorId, country, urls(ctx));
    ctx.status = 303;
    ctx.redirect(started.url);
  });
  router.get('/refresh', async (ctx) => {
    const creatorId = await creator(ctx);
    const started = await connectPayoutAccount(deps(ctx), creatorId, ctx.deps.config.PAYOUT_PLATFORM_COUNTRY.toUpperCase(), urls(ctx));
    ctx.status = 303;
    ctx.redirect(started.url);
  });
  router.get('/return', async (ctx) => {
    const account = await refreshPayoutAccount(deps(ctx), await creator(ctx));
    ctx.status = 303;
    ctx.redirect(opts.afterReturn?.(ctx) ?? `${ctx.deps.config.DASHBOARD_URL}/creator?payouts=${account.ready ? 'ready' : 'incomplete'}`);
  });
  router.get('/status', async (ctx) => {
    ctx.body = await refreshPayoutAccount(deps(ctx), await creator(ctx));
  });
  return router;
}
