// Signing in to the dashboard from tests through the real sign-in form, and sending the session's requests
// (cookie + CSRF token) to the dashboard REST.
import type { Knex } from 'knex';
import { randomBytes } from 'node:crypto';
import { addMembership, createUser } from '../../db/organizations-writes.js';
import { hashPassword } from '../../lib/passwords.js';
import type { MembershipRole } from '../../schema/types.js';
import { Browser, inputValue } from './browser.js';
import { request, type JsonResponse } from './http.js';

export interface DashboardSession {
  browser: Browser;
  cookie: string;
  csrf: string;
}

export async function signInDashboard(baseUrl: string, email: string, password: string): Promise<DashboardSession> {
  const browser = new Browser();
  const form = await browser.fetch(`${baseUrl}/dashboard/login`);
  const done = await browser.fetch(`${baseUrl}/dashboard/login`, {
    form: { csrf: inputValue(form.text, 'csrf') ?? '', return_to: '/dashboard', email, password },
  });
  if (done.status !== 303) throw new Error(`sign-in failed: ${done.status} ${done.text.slice(0, 200)}`);
  const info = await request(baseUrl, 'GET', '/dashboard/session', { headers: { cookie: browser.cookieHeader() } });
  return { browser, cookie: browser.cookieHeader(), csrf: info.body.csrf_token as string };
}

/** A JSON call of the signed-in session (CSRF header unless `csrf: null`). */
export function sessionCall(
  baseUrl: string,
  s: DashboardSession,
  method: string,
  path: string,
  body?: unknown,
  csrf: string | null = s.csrf,
): Promise<JsonResponse> {
  return request(baseUrl, method, path, { body, headers: { cookie: s.cookie, ...(csrf === null ? {} : { 'x-csrf-token': csrf }) } });
}

/** A new verified user with `role` in the organization, signed in to the dashboard. */
export async function signInTeammate(
  db: Knex,
  baseUrl: string,
  orgId: string,
  role: MembershipRole,
): Promise<DashboardSession & { userId: string; email: string }> {
  const email = `${role}+${randomBytes(4).toString('hex')}@example.com`;
  const password = `${role} password 123`;
  const user = await createUser(db, { email, passwordHash: await hashPassword(password), name: role, emailVerified: true });
  await addMembership(db, orgId, user.id, role);
  return { ...(await signInDashboard(baseUrl, email, password)), userId: user.id, email };
}
