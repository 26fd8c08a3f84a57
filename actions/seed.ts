// `svc seed --json`: a NEW isolated demo organization with everything an agent or a test needs to drive the
// service end to end (CONTRACT.md lists the exact keys). Everything is written in one transaction; the CLI
// (cli/main.ts, cli/dev.ts), the tests and the benches call it.
import type { Knex } from 'knex';
import { randomBytes } from 'node:crypto';
import { createApp } from '../db/apps-writes.js';
import { createAgentKey } from '../db/agent-keys-writes.js';
import { createCampaign } from '../db/campaigns-writes.js';
import { addCreatorCode, upsertCreator } from '../db/creators-writes.js';
import { addMembership, createOrganization, createUser } from '../db/organizations-writes.js';
import { appendLedgerEntry } from '../db/wallet-ledger-writes.js';
import { issueCreatorCode } from '../lib/codes.js';
import { toMicros } from '../lib/money.js';
import { hashPassword } from '../lib/passwords.js';
import { SCOPES } from '../lib/scopes.js';

export const SEED_KEYS = [
  'base_url',
  'dashboard_url',
  'org_id',
  'user_email',
  'user_password',
  'agent_key',
  'app_id',
  'sdk_key',
  'webhook_secret',
  'campaign_id',
  'creator_code',
  'wallet_balance_usd',
  'purchase_api_key',
] as const;

export type SeedResult = Record<Exclude<(typeof SEED_KEYS)[number], 'wallet_balance_usd'>, string> & { wallet_balance_usd: number };

const DEMO_WALLET_USD = 1000;

export async function seedDemoAccount({ db }: { db: Knex }, urls: { baseUrl: string; dashboardUrl: string }): Promise<SeedResult> {
  const tag = randomBytes(4).toString('hex');
  const password = randomBytes(12).toString('base64url');
  const email = `demo+${tag}@example.com`;
  const passwordHash = await hashPassword(password);
  return db.transaction(async (trx) => {
    const user = await createUser(trx, { email, passwordHash, name: 'Demo Developer', emailVerified: true });
    const org = await createOrganization(trx, { name: `Demo Org ${tag}`, createdByUserId: user.id });
    await addMembership(trx, org.id, user.id, 'owner');
    const app = await createApp(trx, {
      orgId: org.id,
      name: `Demo App ${tag}`,
      slug: `demo-${tag}`,
      description: 'Seeded demo app',
      supportEmail: email,
      iosStoreUrl: 'https://apps.apple.com/app/id000000000',
      androidStoreUrl: 'https://play.google.com/store/apps/details?id=com.example.demo',
      webUrl: 'https://example.com/demo',
    });
    const campaign = await createCampaign(trx, {
      appId: app.id,
      orgId: org.id,
      name: 'Launch campaign',
      description: '30% of every purchase for 12 months',
      campaignType: 'public',
      commissionPercentage: 30,
      status: 'active',
    });
    const creator = await upsertCreator(trx, {
      name: 'Demo Creator',
      email: `creator+${tag}@example.com`,
      socialHandle: `@democreator${tag}`,
      followerCount: 12000,
    });
    const code = await addCreatorCode(trx, {
      appId: app.id,
      campaignId: campaign.id,
      creatorId: creator.id,
      code: issueCreatorCode(),
      source: 'seed',
    });
    await appendLedgerEntry(trx, {
      orgId: org.id,
      entryType: 'topup',
      balanceDeltaMicros: toMicros(DEMO_WALLET_USD),
      reservedDeltaMicros: 0,
      idempotencyKey: `topup:seed:${org.id}`,
      memo: 'Seeded test funds',
      createdBy: 'svc seed',
    });
    const agentKey = await createAgentKey(trx, { orgId: org.id, name: 'Seeded agent key', scopes: SCOPES, createdByUserId: user.id });
    return {
      base_url: urls.baseUrl,
      dashboard_url: urls.dashboardUrl,
      org_id: org.id,
      user_email: email,
      user_password: password,
      agent_key: agentKey.key,
      app_id: app.id,
      sdk_key: app.sdkKey,
      webhook_secret: app.webhookSecret,
      campaign_id: campaign.id,
      creator_code: code.code,
      wallet_balance_usd: DEMO_WALLET_USD,
      purchase_api_key: app.purchaseApiKey,
    };
  });
}
