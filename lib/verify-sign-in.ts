// When opening the verification link also signs the person in (issue 41): the link lives 48 hours, and whoever holds
// it later (a forwarded mail, a shared inbox) should not land in the account without the password. So it signs in
// only within an hour of the sign-up, or in the browser that signed up (a cookie set by the sign-up answer); any
// other time it verifies the address and asks for the password.

/** How long after sign-up the link alone signs in, in any browser. */
export const VERIFY_SIGN_IN_WINDOW_MS = 60 * 60_000;

export function verificationSignsIn(input: { signedUpAt: Date; now: Date; sameBrowser: boolean }): boolean {
  if (input.sameBrowser) return true;
  const since = input.now.getTime() - input.signedUpAt.getTime();
  return since >= 0 && since < VERIFY_SIGN_IN_WINDOW_MS;
}
