// GET/POST /api/agent/apps/{app_id}/free-codes: free-access (comp) codes with their seats. A new code follows the
// creator-code rules (lib/codes.ts: cleaned up, 4 to 20 characters) and must be free in the app: neither a creator
// code (even a removed one) nor another free code holds it, else 409. `GET ?code=X` answers that one code (cleaned
// up the same way; 404 when the app has none) with `redemptions[]`: each user it granted access to (`app_user_id`,
// `granted_at`, `expires_at`; a user's re-redemption renews the one grant), newest first, `limit` (1 to 100, default
// 100) a page, `next_cursor` (null on the last page) passed back as `cursor` for the next.
import { findApp } from '../../db/apps.js';
import { createFreeCode } from '../../actions/free-codes.js';
import { findFreeCodeByCode, listCodeRedemptions, listFreeCodes, type FreeCodeView, type RedemptionsCursor } from '../../db/free-access.js';
import { cleanupCode, CODE_MAX_LENGTH, CODE_MIN_LENGTH, isValidCodeLength } from '../../lib/codes.js';
import { ConflictError, NotFoundError, ValidationError } from '../../errors/http-errors.js';
import { decodeStringCursor, encodeCursor } from '../../lib/page-cursor.js';
import type { AppContext } from '../context.js';
import { inputOf } from '../middleware/validate.js';
import { describeFreeAccess } from '../sdk/code-lookup.js';
import { actorIdOf, visibleTo } from './principal.js';

const nullableInt = { type: ['integer', 'null'], minimum: 0, maximum: 1_000_000 } as const;

export const createFreeCodeBody = {
  type: 'object',
  additionalProperties: false,
  required: ['code'],
  properties: {
    code: {
      type: 'string',
      minLength: 1,
      maxLength: 64,
      description: 'Uppercased; characters outside A-Z 0-9 _ - are dropped; 4 to 20 must remain',
    },
    name: { type: ['string', 'null'], maxLength: 200 },
    entitlement: { type: 'string', minLength: 1, maxLength: 100, description: 'Default premium' },
    seat_limit: { ...nullableInt, description: 'Users who may redeem it; null = unlimited' },
    access_duration_years: nullableInt,
    access_duration_days: nullableInt,
    expires_at: { type: ['string', 'null'], format: 'date-time', description: 'When the code (and all access it gave) ends' },
    custom_data: { type: ['object', 'null'] },
    blocked: { type: 'boolean' },
  },
} as const;

export const listFreeCodesQuery = {
  type: 'object',
  properties: {
    code: {
      type: 'string',
      minLength: 1,
      maxLength: 64,
      description: 'Answer this code alone, with the users it granted access to (redemptions[], newest first)',
    },
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 100, description: 'Redemptions per page (with code)' },
    cursor: { type: 'string', minLength: 1, maxLength: 400, description: 'next_cursor of the previous page (with code)' },
  },
  dependencies: { cursor: ['code'] },
} as const;

interface CreateInput {
  code: string;
  name?: string | null;
  entitlement?: string;
  seat_limit?: number | null;
  access_duration_years?: number | null;
  access_duration_days?: number | null;
  expires_at?: string | null;
  custom_data?: Record<string, unknown> | null;
  blocked?: boolean;
}

export function freeCodeView(c: FreeCodeView) {
  return {
    ...c,
    seats_left: c.seat_limit === null ? null : Math.max(0, c.seat_limit - c.seats_used),
    description: describeFreeAccess(c),
    live: !c.blocked && (c.expires_at === null || c.expires_at > new Date()),
  };
}

async function oneCodeWithRedemptions(ctx: AppContext, appId: string, query: { code: string; limit: number; cursor?: string }) {
  const code = cleanupCode(query.code);
  const row = await findFreeCodeByCode(ctx.deps.db, appId, code);
  if (!row) throw new NotFoundError(`No free-access code '${code}' in this app.`);
  const after = query.cursor ? (decodeStringCursor(query.cursor, 2) as unknown as RedemptionsCursor) : undefined;
  const { redemptions, next } = await listCodeRedemptions(ctx.deps.db, row.id, query.limit, after);
  return { ...freeCodeView(row), redemptions, next_cursor: next ? encodeCursor(next) : null };
}

export async function listFreeCodesHandler(ctx: AppContext): Promise<void> {
  const appId = ctx.params.app_id as string;
  visibleTo(ctx, await findApp(ctx.deps.db, appId), 'App');
  const query = inputOf<{ code?: string; limit: number; cursor?: string }>(ctx);
  if (query.code !== undefined) {
    ctx.body = await oneCodeWithRedemptions(ctx, appId, { ...query, code: query.code });
    return;
  }
  const rows = await listFreeCodes(ctx.deps.db, appId);
  ctx.body = { app_id: appId, free_codes: rows.map(freeCodeView), count: rows.length };
}

export async function createFreeCodeHandler(ctx: AppContext): Promise<void> {
  const appId = ctx.params.app_id as string;
  visibleTo(ctx, await findApp(ctx.deps.db, appId), 'App');
  const input = inputOf<CreateInput>(ctx);
  const code = cleanupCode(input.code);
  if (!isValidCodeLength(code)) {
    throw new ValidationError([
      {
        loc: ['body', 'code'],
        msg: `After cleanup (uppercase, A-Z 0-9 _ -) the code must be ${CODE_MIN_LENGTH} to ${CODE_MAX_LENGTH} characters`,
        type: 'value_error',
      },
    ]);
  }
  if (input.expires_at && new Date(input.expires_at) <= new Date()) {
    throw new ValidationError([{ loc: ['body', 'expires_at'], msg: 'Must be in the future', type: 'value_error' }]);
  }
  const row = await createFreeCode(ctx.deps, {
    appId,
    code,
    name: input.name,
    entitlement: input.entitlement,
    seatLimit: input.seat_limit,
    years: input.access_duration_years,
    days: input.access_duration_days,
    expiresAt: input.expires_at,
    customData: input.custom_data ?? undefined,
    blocked: input.blocked,
    createdBy: actorIdOf(ctx),
  });
  if (!row) throw new ConflictError(`The code '${code}' is already taken in this app (by a creator code or another free code).`);
  ctx.caches.codes.dropApp(appId);
  ctx.status = 201;
  ctx.body = freeCodeView(row);
}
