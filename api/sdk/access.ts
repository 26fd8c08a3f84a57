// GET /api/sdk/access?app_user_id=: the premium gate for free-access (comp) grants. Evaluated from the database on
// every call (expiry, blocking, current seat limit), so the client's 5-minute positive cache is the only cache.
import { findActiveAccessGrant } from '../../db/free-access.js';
import { BadRequestError } from '../../errors/http-errors.js';
import type { AppContext } from '../context.js';
import { inputOf } from '../middleware/validate.js';
import { sdkAppOf } from './sdk-app.js';

// app_user_id is not `required` here: the spec wants a missing or empty id to be 400, not the generic 422.
export const accessQuery = {
  type: 'object',
  properties: { app_user_id: { type: 'string' } },
};

interface AccessQuery {
  app_user_id?: string;
}

export async function checkAccess(ctx: AppContext): Promise<void> {
  const appUserId = inputOf<AccessQuery>(ctx).app_user_id;
  if (!appUserId?.trim()) throw new BadRequestError('app_user_id is required.');
  const grant = await findActiveAccessGrant(ctx.deps.db, sdkAppOf(ctx).appId, appUserId);
  ctx.body = grant
    ? {
        has_access: true,
        source: 'comp',
        entitlement: grant.entitlement,
        expires_at: grant.expires_at?.toISOString() ?? null,
        code: grant.code,
      }
    : { has_access: false, source: null, entitlement: null, expires_at: null, code: null };
}
