// leaked_code (a policy signal, not proof of fraud): a creator's code redeemed by many users with no click or link
// of the creator behind them, which is what a code posted on a coupon site looks like. The creator may have done
// nothing wrong; the campaign's owner decides whether such redemptions earn.
// Rule: within the last LEAKED_CODE_WINDOW_DAYS, at least LEAKED_CODE_MIN_USERS distinct users redeemed the code and
// at least LEAKED_CODE_MIN_SHARE_WITHOUT_CLICK of them came with no click or link (a user with any redemption behind a
// click or link counts as with). The evidence never names the code: the review row names the creator.
// False positives: a creator who reads the code aloud in a video or podcast (the audience types it: no click), which
// is why this flags by default and never holds unless an owner chooses so.
import type { FraudSignal } from './types.js';
import { percent } from './words.js';

export const LEAKED_CODE_WINDOW_DAYS = 7;
export const LEAKED_CODE_MIN_USERS = 20;
export const LEAKED_CODE_MIN_SHARE_WITHOUT_CLICK = 0.8;

export interface CodeRedemption {
  /** The app's user who redeemed it. */
  userId: string;
  at: Date;
  /** A click on the creator's link, the link itself or its install referrer is behind this redemption. */
  viaClickOrLink: boolean;
}

export interface LeakedCodeFacts {
  redemptions: readonly CodeRedemption[];
  /** The end of the window (the purchase's time when evaluated at the earn). */
  now: Date;
}

export function leakedCode(f: LeakedCodeFacts): FraudSignal | null {
  const since = f.now.getTime() - LEAKED_CODE_WINDOW_DAYS * 86_400_000;
  const users = new Map<string, boolean>();
  for (const r of f.redemptions) {
    const at = r.at.getTime();
    if (at < since || at > f.now.getTime()) continue;
    users.set(r.userId, (users.get(r.userId) ?? false) || r.viaClickOrLink);
  }
  const total = users.size;
  const without = [...users.values()].filter((via) => !via).length;
  if (total < LEAKED_CODE_MIN_USERS || without < LEAKED_CODE_MIN_SHARE_WITHOUT_CLICK * total) return null;
  return {
    signal: 'leaked_code',
    evidence:
      `${without} of ${total} users who redeemed this creator's code in the last ${LEAKED_CODE_WINDOW_DAYS} days ` +
      `(${percent(without / total)}) came with no click or link of the creator: the code may be shared beyond their audience.`,
  };
}
