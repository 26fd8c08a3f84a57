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
export const SIGNAL_ACTIONS: readonly SignalAction[] = ['off', 'flag', 'hold'];
export const isSignalAction = (v: unknown): v is SignalAction => typeof v === 'string' && (SIGNAL_ACTIONS as readonly string[]).includes(v);

/** Each signal's name in words, as the dashboard's review queue and campaign page show it. */
export const SIGNAL_NAMES: Readonly<Record<FraudSignalName, string>> = {
  self_referral: 'Self-referral',
  install_farm: 'Install farm',
  click_injection: 'Click injection',
  refund_abuse: 'Refund abuse',
  leaked_code: 'Leaked code',
};

/** What each signal looks for, in one sentence (docs/fraud-signals.md has the thresholds). */
export const SIGNAL_MEANINGS: Readonly<Record<FraudSignalName, string>> = {
  self_referral: "The purchaser is the creator: the same email, or the install came from the creator's own address and device.",
  install_farm: 'Many installs of one creator from one address on (nearly) one kind of device in a short time.',
  click_injection: 'Android only: the referral click came once the install was already under way.',
  refund_abuse: "The creator's refund rate is far above the app's own, over a minimum sample.",
  leaked_code: "The creator's code is redeemed by many users with no click or link of the creator behind them.",
};

/** What each action does to a commission whose signal is raised, in words. */
export const SIGNAL_ACTION_WORDS: Readonly<Record<SignalAction, string>> = {
  off: 'off: not checked',
  flag: 'flag: listed for review, paid as usual',
  hold: 'hold: not paid until a person approves it',
};

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
