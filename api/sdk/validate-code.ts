// POST /api/sdk/validate-code: what a typed code would do, without recording anything. Always 200 once the request
// is valid; the client inspects `valid` and `error_code`.
import type { ActiveCreatorCode } from '../../db/creators.js';
import { isFreeCodeRedeemable, type FreeAccessCode } from '../../db/free-access.js';
import { cleanupCode, isValidCodeLength } from '../../lib/codes.js';
import type { AppContext } from '../context.js';
import { inputOf } from '../middleware/validate.js';
import { describeFreeAccess, findCodeForAppCached } from './code-lookup.js';
import { sdkAppOf } from './sdk-app.js';

export const validateCodeBody = {
  type: 'object',
  required: ['code'],
  properties: { code: { type: 'string' } },
};

interface ValidateCodeInput {
  code: string;
}

export async function validateCode(ctx: AppContext): Promise<void> {
  const { appId } = sdkAppOf(ctx);
  const code = cleanupCode(inputOf<ValidateCodeInput>(ctx).code);
  if (!isValidCodeLength(code)) {
    ctx.body = invalid('INVALID_FORMAT', 'Codes are 4 to 20 characters: letters, digits, _ or -.');
    return;
  }
  const found = await findCodeForAppCached(ctx.deps.db, ctx.caches, appId, code);
  if (!found) ctx.body = invalid('CODE_NOT_FOUND', 'This code does not exist or is not active.');
  else if (found.kind === 'creator') ctx.body = describeCreatorCode(found.creatorCode);
  else if (!isFreeCodeRedeemable(found.freeCode)) ctx.body = invalid('CODE_EXPIRED', 'This code has expired or has no seats left.');
  else ctx.body = describeFreeCode(found.freeCode);
}

function invalid(errorCode: 'INVALID_FORMAT' | 'CODE_NOT_FOUND' | 'CODE_EXPIRED', error: string) {
  return { valid: false, error, error_code: errorCode };
}

function describeCreatorCode(cc: ActiveCreatorCode) {
  const { name, social_handle, follower_count } = cc.creator;
  return {
    valid: true,
    code: cc.code,
    campaign: cc.campaign,
    influencer: { name, social_handle, follower_count },
    custom_data: null,
    message: `Code ${cc.code} from ${name} is valid.`,
  };
}

// A free-access code presents itself as a pseudo-campaign (spec "Free-access (comp) code"): its id is the code's id.
function describeFreeCode(fc: FreeAccessCode) {
  const description = describeFreeAccess(fc);
  return {
    valid: true,
    code: fc.code,
    campaign: { id: fc.id, name: 'Free Access', description, commission_percentage: 0, campaign_type: 'FREE_ACCESS' },
    influencer: null,
    custom_data: fc.custom_data ?? null,
    message: `${description}.`,
  };
}
