// The shape every fraud signal answers (docs/fraud-signals.md, CONTRACT "Review of suspicious commissions"): a
// signal raised with its evidence in words, a signal that could not be read and says why (`off`), or nothing.
// The rules are pure functions of plain facts: the caller reads the facts (read-only, before the organization lock)
// and decides what a raised signal does (off, flag or hold per campaign; the defaults below).

export const FRAUD_SIGNALS = ['self_referral', 'install_farm', 'click_injection', 'refund_abuse', 'leaked_code'] as const;
export type FraudSignalName = (typeof FRAUD_SIGNALS)[number];

/** A signal raised: `evidence` is one sentence a developer reads; it names no secret (no code, key or token). */
export interface FraudSignal {
  signal: FraudSignalName;
  evidence: string;
  /** Set when the evidence is only weak (install_farm over an IPv4 /24 or IPv6 /48): worth a look, not a hold. */
  weak?: true;
}

/** A signal that could not be evaluated for these facts, with the reason in words (shown, never a flag). */
export interface SignalOff {
  signal: FraudSignalName;
  off: string;
}

export type SignalOutcome = FraudSignal | SignalOff | null;

export const isRaised = (o: SignalOutcome): o is FraudSignal => o !== null && 'evidence' in o;

export type SignalAction = 'off' | 'flag' | 'hold';

/** The defaults: a purchase through one's own code holds; the others flag only (a campaign may change each). */
export const DEFAULT_SIGNAL_ACTION: Readonly<Record<FraudSignalName, SignalAction>> = {
  self_referral: 'hold',
  install_farm: 'flag',
  click_injection: 'flag',
  refund_abuse: 'flag',
  leaked_code: 'flag',
};

/**
 * What a creator is told, whichever signal it was: the rule and its evidence are never shown to the creator (naming
 * the rule teaches how to get around it, and the evidence carries other people's addresses).
 */
export const NEUTRAL_REVIEW_REASON = 'This commission is under review before it can be paid. No action is needed from you.';
export const NEUTRAL_VOID_REASON = 'This commission was not confirmed after review and will not be paid.';
