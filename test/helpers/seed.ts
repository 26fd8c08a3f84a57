// Seeds an organization with a user, an app, an active public campaign, a joined creator, test funds and an
// all-scopes agent key: the same domain functions `svc seed` uses.
import type { Knex } from 'knex';
import { randomBytes } from 'node:crypto';
import { createApp } from '../../db/apps-writes.js';
import { createCampaign } from '../../db/campaigns-writes.js';
import { addCreatorCode, upsertCreator } from '../../db/creators-writes.js';
import { createOrganization } from '../../db/organizations-writes.js';
import { seedDemoAccount, type SeedResult } from '../../actions/seed.js';
import { appendLedgerEntry } from '../../db/wallet-ledger-writes.js';
import { issueCreatorCode } from '../../lib/codes.js';
import { toMicros } from '../../lib/money.js';

export async function seedAccount(db: Knex, baseUrl = 'http://127.0.0.1'): Promise<SeedResult> {
  return seedDemoAccount({ db }, { baseUrl, dashboardUrl: `${baseUrl}/dashboard` });
}

export interface SeededApp {
  org_id: string;
  app_id: string;
  sdk_key: string;
  webhook_secret: string;
  /** The direct-purchase server key (it_srv_...), which seedAccount does not return. */
  purchase_api_key: string;
  campaign_id: string;
  creator_id: string;
  creator_code: string;
}

/**
 * One more app with every credential, an active public campaign (commission 30 unless told) and a joined creator
 * code. In a new organization unless `orgId` is given; its wallet is topped up with `walletUsd` (default 1000, 0 for
 * an empty wallet).
 */
export async function seedApp(
  db: Knex,
  opts: { orgId?: string; walletUsd?: number; commissionPercentage?: number } = {},
): Promise<SeededApp> {
  const tag = randomBytes(4).toString('hex');
  return db.transaction(async (trx) => {
    const orgId = opts.orgId ?? (await createOrganization(trx, { name: `Test Org ${tag}` })).id;
    const app = await createApp(trx, { orgId, name: `Test App ${tag}`, slug: `test-${tag}` });
    const campaign = await createCampaign(trx, {
      appId: app.id,
      orgId,
      name: 'Test campaign',
      campaignType: 'public',
      commissionPercentage: opts.commissionPercentage ?? 30,
      status: 'active',
    });
    const creator = await upsertCreator(trx, { name: 'Test Creator', email: `creator+${tag}@example.com` });
    const code = await addCreatorCode(trx, {
      appId: app.id,
      campaignId: campaign.id,
      creatorId: creator.id,
      code: issueCreatorCode(),
      source: 'seed',
    });
    const walletUsd = opts.walletUsd ?? 1000;
    if (walletUsd > 0) {
      await appendLedgerEntry(trx, {
        orgId,
        entryType: 'topup',
        balanceDeltaMicros: toMicros(walletUsd),
        reservedDeltaMicros: 0,
        idempotencyKey: `topup:test:${app.id}`,
        memo: 'Test funds',
        createdBy: 'test',
      });
    }
    return {
      org_id: orgId,
      app_id: app.id,
      sdk_key: app.sdkKey,
      webhook_secret: app.webhookSecret,
      purchase_api_key: app.purchaseApiKey,
      campaign_id: campaign.id,
      creator_id: creator.id,
      creator_code: code.code,
    };
  });
}
