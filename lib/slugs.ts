// App slugs are the first path segment of referral links (`{base_url}/{slug}/{code}`), so they must never
// shadow one of the service's own top-level paths.

export const RESERVED_SLUGS = new Set([
  'api',
  'mcp',
  'oauth',
  '.well-known',
  'well-known',
  'join',
  'dashboard',
  'healthz',
  'readyz',
  'metrics',
  'static',
  'assets',
  'public',
  'admin',
  'login',
  'logout',
  'signup',
  'register',
  'consent',
  'authorize',
  'token',
  'docs',
  'openapi',
  'favicon.ico',
  'robots.txt',
  'sdk',
  'webhooks',
  'links',
  'l',
  'r',
  'www',
  'app',
  'apps',
  'status',
  'health',
  'settings',
  'account',
  'billing',
  'wallet',
  'support',
  'help',
  'about',
  'terms',
  'privacy',
]);

const SLUG_RE = /^[a-z0-9][a-z0-9_-]{0,62}$/;

export function isValidSlug(slug: string): boolean {
  return SLUG_RE.test(slug) && !RESERVED_SLUGS.has(slug);
}

export function slugify(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48);
  return base.length > 0 ? base : 'app';
}

export type SlugProblem = 'reserved' | 'invalid_format';

export const SLUG_RULES = 'Slugs are 1 to 63 characters: lowercase letters, digits, "-" and "_", starting with a letter or digit.';

/** Why a slug can never be used (whoever holds it), or undefined when it could be. */
export function slugProblem(slug: string): SlugProblem | undefined {
  if (RESERVED_SLUGS.has(slug)) return 'reserved';
  return SLUG_RE.test(slug) ? undefined : 'invalid_format';
}
