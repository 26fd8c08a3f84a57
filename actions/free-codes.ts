// Free-access (comp) codes: created by an agent (api/agent/free-codes.ts), blocked or unblocked from the dashboard
// (api/dashboard/free-codes/free-code-block.ts), redeemed by an app user through the SDK (api/sdk/set-referral-code.ts). Each
// is one statement or one transaction of db/free-access-writes.ts (a redemption counts seats under the code's row
// lock); callers only translate input and output.
import type { Knex } from 'knex';
import type { FreeCodeView } from '../db/free-access.js';
import {
  createFreeCode as insertFreeCode,
  redeemFreeAccessCode,
  setFreeCodeBlocked,
  type NewFreeCode,
  type RedeemOutcome,
  type Redemption,
} from '../db/free-access-writes.js';

type Deps = { db: Knex };

/** undefined when the code is taken in the app (by a creator code, even a removed one, or another free code). */
export async function createFreeCode(deps: Deps, code: NewFreeCode): Promise<FreeCodeView | undefined> {
  return insertFreeCode(deps.db, code);
}

/** undefined when the app has no such code. */
export async function blockFreeCode(
  deps: Deps,
  { appId, id, blocked }: { appId: string; id: string; blocked: boolean },
): Promise<FreeCodeView | undefined> {
  return setFreeCodeBlocked(deps.db, appId, id, blocked);
}

/** undefined when the code is not the app's. */
export async function redeemFreeCode(deps: Deps, redemption: Redemption): Promise<RedeemOutcome | undefined> {
  return redeemFreeAccessCode(deps.db, redemption);
}
