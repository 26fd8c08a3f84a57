// The one rule for a USD amount a human types on the top-up page (a top-up, an auto-recharge threshold or amount):
// digits with at most two decimals, between TOPUP_MIN_USD and TOPUP_MAX_USD. Answers the problem, or undefined.
import { formatUsd } from './money.js';

const AMOUNT = /^\d{1,9}(\.\d{1,2})?$/;

export function usdAmountProblem(raw: unknown, bounds: { TOPUP_MIN_USD: number; TOPUP_MAX_USD: number }): string | undefined {
  if (typeof raw !== 'string' || !AMOUNT.test(raw.trim())) return 'Enter an amount in US dollars, e.g. 250 or 99.50';
  const usd = Number(raw);
  if (usd < bounds.TOPUP_MIN_USD || usd > bounds.TOPUP_MAX_USD) {
    return `The amount must be between ${formatUsd(bounds.TOPUP_MIN_USD * 1e6)} and ${formatUsd(bounds.TOPUP_MAX_USD * 1e6)}`;
  }
  return undefined;
}
