// Agent scopes (spec "Authentication" 4) and the actions denied to every agent whatever its scopes (5).

export const SCOPES = [
  'apps:read',
  'apps:write',
  'campaigns:read',
  'campaigns:write',
  'analytics:read',
  'creators:read',
  'creators:write',
  'assets:read',
  'assets:write',
  'billing:read',
  'integration:verify',
] as const;
export type Scope = (typeof SCOPES)[number];

/** What each scope lets an agent do, in a plain sentence (consent page, OpenAPI). */
export const SCOPE_SENTENCES: Record<Scope, string> = {
  'apps:read': 'See your apps and their settings.',
  'apps:write': 'Create apps and change their settings.',
  'campaigns:read': 'See your campaigns.',
  'campaigns:write': 'Create campaigns and change them (including activating and pausing).',
  'analytics:read': 'See clicks, installs, conversions and revenue.',
  'creators:read': 'See the creators in your campaigns and their codes.',
  'creators:write': 'Invite creators and manage their codes.',
  'assets:read': 'See marketing assets.',
  'assets:write': 'Add and change marketing assets.',
  'billing:read': 'See your wallet balance, reserved funds and auto-recharge status (read-only).',
  'integration:verify': 'Check and test your SDK and webhook integration.',
};

export const HARD_DENIED = ['money:write', 'payouts', 'credentials:raw', 'delete', 'admin'] as const;
export type HardDeniedAction = (typeof HARD_DENIED)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** Parses `a,b,c` (CLI, consent form); unknown names are reported, not dropped silently. */
export function parseScopes(list: string): { scopes: Scope[]; unknown: string[] } {
  const names = [
    ...new Set(
      list
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  return { scopes: names.filter(isScope), unknown: names.filter((n) => !isScope(n)) };
}
