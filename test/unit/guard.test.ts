import test from 'ava';
import { assertOrgAccess, checkRule, type GuardRule } from '../../api/auth/guard.js';
import { ForbiddenError, MissingScopeError, NotFoundError, UnauthorizedError } from '../../errors/http-errors.js';
import type { Principal } from '../../lib/principal.js';
import { SCOPES } from '../../lib/scopes.js';

const sdk: Principal = { kind: 'sdk', appId: 'app_1', orgId: 'org_1' };
const agentAll: Principal = { kind: 'agent', authMode: 'agent_key', id: 'akey_1', orgIds: ['org_1'], scopes: [...SCOPES] };
const agentRead: Principal = { kind: 'agent', authMode: 'oauth', id: 'grant_1', orgIds: ['org_1', 'org_2'], scopes: ['apps:read'] };
const user: Principal = { kind: 'user', userId: 'usr_1', sessionId: 'ses_1', orgIds: ['org_1'] };

const agentRoute: GuardRule = { allow: ['agent'], scope: 'campaigns:write' };
const dashboardRoute: GuardRule = { allow: ['user'] };
const moneyRoute: GuardRule = { allow: ['agent', 'user'], deny: 'money:write' };

const rows: [string, Principal | undefined, GuardRule, (new (...a: any[]) => Error) | undefined, string?][] = [
  ['no credential on an agent route', undefined, agentRoute, UnauthorizedError],
  ['SDK key on an agent route', sdk, agentRoute, UnauthorizedError],
  ['agent key on the dashboard REST', agentAll, dashboardRoute, UnauthorizedError],
  ['agent without the scope', agentRead, agentRoute, MissingScopeError, 'campaigns:write'],
  ['agent with the scope', agentAll, agentRoute, undefined],
  ['agent with every scope on a hard-denied route', agentAll, moneyRoute, ForbiddenError, 'money:write'],
  ['dashboard user on a hard-denied route', user, moneyRoute, undefined],
  ['dashboard session on the dashboard REST', user, dashboardRoute, undefined],
  ['SDK key on an SDK route', sdk, { allow: ['sdk'] }, undefined],
];

for (const [label, principal, rule, expected, mention] of rows) {
  test(`guard: ${label}`, (t) => {
    const err = checkRule(principal, rule);
    if (!expected) {
      t.is(err, undefined);
      return;
    }
    t.true(err instanceof expected, `got ${err?.constructor.name}`);
    if (mention) t.true(err!.message.includes(mention), err!.message);
  });
}

test('guard: 401 text distinguishes a missing from an invalid credential', (t) => {
  t.regex(checkRule(undefined, agentRoute, false)!.message, /Missing credentials/);
  t.regex(checkRule(undefined, agentRoute, true)!.message, /invalid, expired or revoked/);
});

test('guard: 403 for a missing scope names the scope', (t) => {
  const err = checkRule(agentRead, { allow: ['agent'], scope: 'billing:read' }) as MissingScopeError;
  t.is(err.scope, 'billing:read');
  t.is((err as unknown as { status: number }).status, 403);
});

test('tenancy: an organization outside the grant is 404, never 403', (t) => {
  t.notThrows(() => assertOrgAccess(agentRead, 'org_2'));
  t.throws(() => assertOrgAccess(agentRead, 'org_3'), { instanceOf: NotFoundError });
  t.throws(() => assertOrgAccess(agentAll, 'org_2'), { instanceOf: NotFoundError });
  t.throws(() => assertOrgAccess(sdk, 'org_2'), { instanceOf: NotFoundError });
  t.notThrows(() => assertOrgAccess(sdk, 'org_1'));
  t.throws(() => assertOrgAccess(undefined, 'org_1'), { instanceOf: NotFoundError });
  t.throws(() => assertOrgAccess(user, null), { instanceOf: NotFoundError });
});
