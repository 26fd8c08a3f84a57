// Referral and free-access code rules (spec "Creator code and creator"): uppercase, drop everything outside
// A-Z 0-9 _ -, valid when 4 to 20 characters remain. Platform-issued creator codes start with INFLU-.
import { randomInt } from 'node:crypto';

export const CODE_MIN_LENGTH = 4;
export const CODE_MAX_LENGTH = 20;
const ISSUED_CODE_PREFIX = 'INFLU-';

export function cleanupCode(raw: string): string {
  return raw.toUpperCase().replace(/[^A-Z0-9_-]/g, '');
}

export function isValidCodeLength(code: string): boolean {
  return code.length >= CODE_MIN_LENGTH && code.length <= CODE_MAX_LENGTH;
}

// No 0/O or 1/I: codes are read aloud in videos and typed by hand.
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export function issueCreatorCode(length = 6): string {
  let suffix = '';
  for (let i = 0; i < length; i++) suffix += ALPHABET[randomInt(ALPHABET.length)];
  return `${ISSUED_CODE_PREFIX}${suffix}`;
}
