// Milestone bonus rules as a campaign field (CONTRACT.md "Milestone bonus rules"): the checks JSON Schema cannot
// say (distinct thresholds, whole cents), the default name, and the amount in micro-USD. A refusal is the same 422
// as the schema's, naming `bonus_rules` (and the offending rule), before anything is written.
import { ValidationError, type FieldProblem } from '../errors/http-errors.js';
import { toMicros } from './money.js';

export interface BonusRuleInput {
  threshold_conversions: number;
  bonus_usd: number;
  name?: string;
}
export interface BonusRule {
  thresholdConversions: number;
  bonusMicros: number;
  name: string;
}

export const MAX_BONUS_RULES = 10;
export const MAX_BONUS_USD = 100_000;

const defaultBonusRuleName = (threshold: number) => `${threshold} conversions bonus`;

/** The rules to save, or a 422 listing every rule with a repeated threshold or more than two decimals. */
export function normalizeBonusRules(rules: readonly BonusRuleInput[]): BonusRule[] {
  const problems: FieldProblem[] = [];
  const seen = new Set<number>();
  const normalized = rules.map((r, i) => {
    const loc = ['body', 'bonus_rules', i];
    if (seen.has(r.threshold_conversions)) {
      problems.push({
        loc: [...loc, 'threshold_conversions'],
        msg: `threshold ${r.threshold_conversions} appears twice: thresholds must be distinct`,
        type: 'unique',
      });
    }
    seen.add(r.threshold_conversions);
    // Whole cents, read from the number as sent: 10.0000001 is refused, not rounded to 10.00 (toMicros would).
    if (Number(r.bonus_usd.toFixed(2)) !== r.bonus_usd)
      problems.push({ loc: [...loc, 'bonus_usd'], msg: 'at most 2 decimals (whole cents)', type: 'multipleOf' });
    const bonusMicros = toMicros(r.bonus_usd.toFixed(2));
    return { thresholdConversions: r.threshold_conversions, bonusMicros, name: r.name ?? defaultBonusRuleName(r.threshold_conversions) };
  });
  if (problems.length > 0) throw new ValidationError(problems);
  return normalized;
}
