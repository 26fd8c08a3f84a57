// The one rule for how a stored store environment reads in every API field (agent REST, tool server, client API,
// event streams): the spec fixes `SANDBOX | PRODUCTION`, so the stores' other sandboxes (Apple's XCODE, Google's
// LOCAL_TESTING) read as SANDBOX. Only the dashboard shows the raw store environment, beside it ("SANDBOX (Xcode)").

export type ApiEnvironment = 'SANDBOX' | 'PRODUCTION';

/** PRODUCTION stays; every other stored environment is a sandbox. */
export function apiEnvironment(stored: string): ApiEnvironment {
  return stored === 'PRODUCTION' ? 'PRODUCTION' : 'SANDBOX';
}

/** The same for a column that may be empty (an SDK event carries no environment): null stays null. */
export function apiEnvironmentOrNull(stored: string | null): ApiEnvironment | null {
  return stored === null ? null : apiEnvironment(stored);
}

const STORE_NAMES: Readonly<Record<string, string>> = { XCODE: 'Xcode', LOCAL_TESTING: 'local testing' };

/** The dashboard's words: the API's value, and the store's own name when it said more ("SANDBOX (Xcode)"); '' for none. */
export function environmentLabel(stored: string | null | undefined): string {
  if (!stored) return '';
  const name = STORE_NAMES[stored];
  return name ? `${apiEnvironment(stored)} (${name})` : apiEnvironment(stored);
}
