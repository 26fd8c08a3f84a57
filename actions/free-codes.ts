// Free-access (comp) codes: created by an agent (api/agent/free-codes.ts), blocked or unblocked from the dashboard
// (api/dashboard/free-codes/free-code-block.ts), redeemed by an app user through the SDK (api/sdk/set-referral-code.ts).
// The seat rule of a redemption and the code-name rule of a creation are here; their statements in
// db/free-access-writes.ts.
import type { Knex } from 'knex';
import { isCreatorCodeTaken } from '../db/creators.js';
import { isFreeCodeLive, isFreeCodeRedeemable, type FreeAccessCode, type FreeCodeView, type GrantSummary } from '../db/free-access.js';
import {
  findGrantId,
  insertFreeCode,
  insertGrant,
  insertRedemption,
  lockCodesOfApp,
  lockFreeCode,
  rankGrant,
  renewGrant,
  setFreeCodeBlocked,
  takeSeat,
  type NewFreeCode,
} from '../db/free-access-writes.js';
import { isUniqueViolation } from '../errors/pg-errors.js';

type Deps = { db: Knex };

/** undefined when the code is taken in the app (by a creator code, even a removed one, or another free code). */
export async function createFreeCode(deps: Deps, c: NewFreeCode): Promise<FreeCodeView | undefined> {
  try {
    return await deps.db.transaction(async (trx) => {
      await lockCodesOfApp(trx, c.appId);
      if (await isCreatorCodeTaken(trx, c.appId, c.code)) return undefined;
      return insertFreeCode(trx, c);
    });
  } catch (err) {
    if (isUniqueViolation(err, 'free_access_codes_app_code_uq')) return undefined;
    throw err;
  }
}

/** undefined when the app has no such code. */
export async function blockFreeCode(
  deps: Deps,
  { appId, id, blocked }: { appId: string; id: string; blocked: boolean },
): Promise<FreeCodeView | undefined> {
  return setFreeCodeBlocked(deps.db, appId, id, blocked);
}

export interface Redemption {
  appId: string;
  freeCodeId: string;
  appUserId: string;
  ip: string | null;
  userAgent: string | null;
}

export type RedeemOutcome =
  { kind: 'unavailable'; code: FreeAccessCode } | { kind: 'granted'; code: FreeAccessCode; grant: GrantSummary; alreadyGranted: boolean };

/**
 * Grants (or re-grants) the code to the user; undefined when the code is not the app's. The code row is locked FOR
 * UPDATE for the whole transaction, so concurrent redemptions of one code run one after another: the seat check, the
 * seats_used increment and the grant's rank all see every earlier grant. A user who already holds a grant re-grants
 * without taking a seat, but only while that grant is still inside the code's current seat limit (otherwise
 * /sdk/access would deny it).
 */
export async function redeemFreeCode(deps: Deps, r: Redemption): Promise<RedeemOutcome | undefined> {
  return deps.db.transaction(async (trx) => {
    const code = await lockFreeCode(trx, r.appId, r.freeCodeId);
    if (!code) return undefined;
    if (!isFreeCodeLive(code)) return { kind: 'unavailable', code };

    const existing = await findGrantId(trx, code.id, r.appUserId);
    let grant: GrantSummary;
    if (existing) {
      if (code.seat_limit !== null && (await rankGrant(trx, existing)) > code.seat_limit) return { kind: 'unavailable', code };
      grant = await renewGrant(trx, existing);
    } else {
      if (!isFreeCodeRedeemable(code)) return { kind: 'unavailable', code };
      await takeSeat(trx, code.id);
      grant = await insertGrant(trx, code.id, r.appUserId);
    }
    await insertRedemption(trx, {
      grant_id: grant.id,
      app_id: r.appId,
      app_user_id: r.appUserId,
      ip: r.ip,
      user_agent: r.userAgent,
      already_granted: existing !== undefined,
    });
    return { kind: 'granted', code, grant, alreadyGranted: existing !== undefined };
  });
}
