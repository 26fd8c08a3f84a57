// POST /api/sdk/set-referral-code: apply a typed code. A creator code counts as one manual click + install (and
// attributes the user when given); a free-access code grants the user access. Unknown or inactive code: 404.
import type { ActiveCreatorCode } from '../../db/creators.js';
import { redeemFreeCode } from '../../actions/free-codes.js';
import { enterReferralCode } from '../../actions/sdk-intake/manual-code.js';
import type { FreeAccessCode } from '../../db/free-access.js';
import { mirrorGrant } from './grant-mirror.js';
import { cleanupCode, isValidCodeLength } from '../../lib/codes.js';
import { NotFoundError } from '../../errors/http-errors.js';
import type { AppContext } from '../context.js';
import { inputOf } from '../middleware/validate.js';
import { describeFreeAccess, findCodeForApp } from './code-lookup.js';
import { sdkAppOf } from './sdk-app.js';

export const setReferralCodeBody = {
  type: 'object',
  required: ['code'],
  properties: { code: { type: 'string' }, app_user_id: { type: ['string', 'null'] } },
};

interface SetReferralCodeInput {
  code: string;
  app_user_id?: string | null;
}
interface Caller {
  appId: string;
  appUserId: string | null;
  ip: string | null;
  userAgent: string | null;
}

export async function setReferralCode(ctx: AppContext): Promise<void> {
  const input = inputOf<SetReferralCodeInput>(ctx);
  const code = cleanupCode(input.code);
  const caller: Caller = {
    appId: sdkAppOf(ctx).appId,
    appUserId: input.app_user_id?.trim() ? input.app_user_id : null,
    ip: ctx.state.clientIp || null,
    userAgent: ctx.get('user-agent') || null,
  };
  const found = isValidCodeLength(code) ? await findCodeForApp(ctx.deps.db, caller.appId, code) : undefined;
  if (!found) throw new NotFoundError('Referral code not found or not active.');
  ctx.body =
    found.kind === 'creator'
      ? await applyCreatorCode(ctx, found.creatorCode, caller)
      : await applyFreeAccessCode(ctx, found.freeCode, caller);
}

async function applyCreatorCode(ctx: AppContext, cc: ActiveCreatorCode, caller: Caller) {
  const outcome = await enterReferralCode(ctx.deps, { ...caller, creatorCode: cc });
  return {
    success: true,
    code: cc.code,
    campaign: { id: cc.campaign.id, name: cc.campaign.name },
    already_attributed: outcome.alreadyAttributed,
    message: outcome.alreadyAttributed ? `Code ${cc.code} was already applied from this network.` : `Code ${cc.code} applied.`,
  };
}

async function applyFreeAccessCode(ctx: AppContext, fc: FreeAccessCode, caller: Caller) {
  const failed = (errorCode: string, message: string) => ({
    success: false,
    free_access: true,
    grants_access: false,
    error_code: errorCode,
    code: fc.code,
    message,
  });
  if (!caller.appUserId) return failed('MISSING_USER_ID', 'A free-access code needs app_user_id: identify the user first.');
  const outcome = await redeemFreeCode(ctx.deps, { ...caller, appUserId: caller.appUserId, freeCodeId: fc.id });
  if (!outcome) throw new NotFoundError('Referral code not found or not active.');
  if (outcome.kind === 'unavailable') return failed('CODE_EXPIRED', 'This code has expired or has no seats left.');
  const { code, grant, alreadyGranted } = outcome;
  const rcGrant = await mirrorGrant(
    { db: ctx.deps.db, box: ctx.secretBox, apiRoot: ctx.deps.config.SUBPROVIDER_API_ROOT },
    { appId: caller.appId, appUserId: caller.appUserId, entitlement: code.entitlement, expiresAt: grant.access_expires_at },
  );
  return {
    success: true,
    code: code.code,
    free_access: true,
    grants_access: true,
    already_granted: alreadyGranted,
    entitlement: code.entitlement,
    access_duration_years: code.access_duration_years,
    access_duration_days: code.access_duration_days,
    ...(grant.access_expires_at ? { expires_at: grant.access_expires_at.toISOString() } : {}),
    rc_grant: rcGrant,
    message: `${describeFreeAccess(code)}${alreadyGranted ? ' (already granted to this user)' : ''}.`,
  };
}
