// The app an SDK request acts for: always the SDK key's own app (the guard admitted only SDK keys).
import { UnauthorizedError } from '../../errors/http-errors.js';
import type { AppContext } from '../context.js';

export function sdkAppOf(ctx: AppContext): { appId: string; orgId: string } {
  const p = ctx.state.principal;
  if (p?.kind !== 'sdk') throw new UnauthorizedError();
  return { appId: p.appId, orgId: p.orgId };
}
