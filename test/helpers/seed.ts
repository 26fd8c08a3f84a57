// Seeds an organization with a user, an app, an active public campaign, a joined creator, test funds and an
// all-scopes agent key: the same domain functions `svc seed` uses.
import type { Knex } from 'knex';
import { seedDemoAccount, type SeedResult } from '../../cli/seed.js';

export async function seedAccount(db: Knex, baseUrl = 'http://127.0.0.1'): Promise<SeedResult> {
  return seedDemoAccount(db, { baseUrl, dashboardUrl: `${baseUrl}/dashboard` });
}
