// The fraud signals (docs/fraud-signals.md): pure rules from plain facts to a signal with its evidence in words,
// a signal that is off with its reason, or nothing. The caller reads the facts and decides off, flag or hold.
export * from './types.js';
export { normalizeEmail, sameMailbox } from './email.js';
export { addressWords, ipSignalsOff, type IpTrust } from './ip-trust.js';
export * from './self-referral.js';
export * from './install-farm.js';
export * from './click-injection.js';
export * from './refund-abuse.js';
export * from './leaked-code.js';
export * from './decide.js';
