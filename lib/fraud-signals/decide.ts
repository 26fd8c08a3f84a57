// What the raised signals do to one commission (docs/fraud-signals.md "Review"): each signal is off, flag or hold
// per campaign (DEFAULT_SIGNAL_ACTION where the campaign names none). Any raised signal set to hold holds the
// commission; otherwise any set to flag flags it. Weak evidence (install_farm over a /24 or /48) never holds: many
// unrelated subscribers share such a network, so it flags even where its signal is set to hold.
import {
  DEFAULT_SIGNAL_ACTION,
  FRAUD_SIGNALS,
  isRaised,
  isSignalAction,
  type FraudSignal,
  type FraudSignalName,
  type SignalAction,
  type SignalOutcome,
} from './types.js';

export type SignalActions = Partial<Record<FraudSignalName, SignalAction>>;

export interface ReviewDecision {
  action: 'hold' | 'flag';
  signals: FraudSignal[];
}

/** A campaign's stored setting, read leniently: an unknown signal or action is ignored (the default applies). */
export function signalActionsOf(stored: unknown): SignalActions {
  if (!stored || typeof stored !== 'object') return {};
  const out: SignalActions = {};
  for (const name of FRAUD_SIGNALS) {
    const v = (stored as Record<string, unknown>)[name];
    if (isSignalAction(v)) out[name] = v;
  }
  return out;
}

export const actionFor = (settings: SignalActions, signal: FraudSignalName): SignalAction =>
  settings[signal] ?? DEFAULT_SIGNAL_ACTION[signal];

/** Every signal set off: nothing can raise a review, so its facts need not be read. */
export const allSignalsOff = (settings: SignalActions): boolean => FRAUD_SIGNALS.every((s) => actionFor(settings, s) === 'off');

/** The review a commission needs, or null when no raised signal is on. */
export function decideReview(outcomes: readonly SignalOutcome[], settings: SignalActions): ReviewDecision | null {
  const raised = outcomes.filter(isRaised).filter((s) => actionFor(settings, s.signal) !== 'off');
  if (raised.length === 0) return null;
  const holds = raised.some((s) => actionFor(settings, s.signal) === 'hold' && !s.weak);
  return { action: holds ? 'hold' : 'flag', signals: raised };
}

/**
 * The signals of a review raised again (before payable) merged into those it has: one entry per signal, the first
 * evidence kept, so a repeat adds nothing and a new signal is added once.
 */
export function mergeSignals(had: readonly FraudSignal[], now: readonly FraudSignal[]): FraudSignal[] {
  const seen = new Set(had.map((s) => s.signal));
  return [...had, ...now.filter((s) => !seen.has(s.signal))];
}
