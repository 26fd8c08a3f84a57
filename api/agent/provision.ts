// POST /api/agent/provision: an app and a campaign in one idempotent call, optionally activated. Idempotent within
// the credential's organization: the app is matched by slug, the campaign by name within the app, so the same
// input twice answers the same ids and changes nothing (PATCH changes existing rows). The SDK key is public and
// always shown; the webhook secret and purchase API key only in the answer that created the app. Every write of
// one call is one transaction, serialized per organization by the wallet lock; a refused activation (402) writes nothing.
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { listOrganizations } from '../../db/organizations.js';
import { findAppBySlug, createApp } from '../../db/apps.js';
import { findCampaignByName, setCampaignStatus, createCampaign } from '../../db/campaigns.js';
import { lockOrganization } from '../../db/wallet-ledger.js';
import type { Config } from '../../lib/config.js';
import { ConflictError, NotFoundError, ValidationError } from '../../lib/errors.js';
import { isUniqueViolation } from '../../lib/pg-errors.js';
import { isValidSlug, SLUG_RULES, slugify, slugProblem } from '../../lib/slugs.js';
import type { AppContext } from '../context.js';
import { inputOf } from '../middleware/validate.js';
import { forgetAppCaches } from './app-caches.js';
import { APP_FIELDS, CAMPAIGN_FIELDS, CAMPAIGN_TYPE, type AgentCampaignType } from './field-schemas.js';
import { agentOf } from './principal.js';
import { assertCanActivate } from './wallet.js';

const { name, description, support_email, ios_store_url, android_store_url, web_url } = APP_FIELDS;

export const provisionBody = {
  type: 'object', additionalProperties: false, required: ['app', 'campaign'],
  properties: {
    org_name: { type: 'string', minLength: 1, maxLength: 200 },
    app: {
      type: 'object', additionalProperties: false, required: ['name'],
      properties: { name, slug: { type: 'string', minLength: 1, maxLength: 63 }, description, support_email, ios_store_url, android_store_url, web_url },
    },
    campaign: {
      type: 'object', additionalProperties: false, required: ['name', 'commission_percentage'],
      properties: { ...CAMPAIGN_FIELDS, campaign_type: CAMPAIGN_TYPE },
    },
    activate: { type: 'boolean', default: false },
  },
} as const;

interface ProvisionInput {
  org_name?: string;
  app: { name: string; slug?: string; description?: string | null; support_email?: string | null; ios_store_url?: string | null; android_store_url?: string | null; web_url?: string | null };
  campaign: { name: string; description?: string | null; commission_percentage: number; holding_period_days?: number; campaign_type: AgentCampaignType };
  activate: boolean;
}

interface Provisioned {
  app: { id: string; slug: string; sdkKey: string; created: boolean; webhookSecret?: string; purchaseApiKey?: string };
  campaign: { id: string; status: string; created: boolean };
  changed: boolean;
}

export async function provisionHandler(ctx: AppContext): Promise<void> {
  const input = inputOf<ProvisionInput>(ctx);
  const { org, note } = await organizationFor(ctx, input.org_name);
  const { app, campaign, changed } = await provisionInOrg(ctx.deps.db, ctx.deps.config, org.id, input);
  if (changed) forgetAppCaches(ctx, app.id);
  const notes = [
    ...(note ? [note] : []),
    ...(app.created ? [] : ['The app already existed: its webhook secret and purchase API key were shown only when it was created. POST /api/agent/apps/{app_id}/regenerate-webhook-secret issues a new webhook secret.']),
  ];
  ctx.status = app.created || campaign.created ? 201 : 200;
  ctx.body = {
    org_id: org.id, app_id: app.id, campaign_id: campaign.id, slug: app.slug, sdk_key: app.sdkKey,
    webhook_url: `${ctx.deps.config.BASE_URL}/api/webhooks/subprovider/${app.id}`,
    created: { app: app.created, campaign: campaign.created },
    ...(app.created ? { webhook_secret: app.webhookSecret, purchase_api_key: app.purchaseApiKey } : {}),
    campaign_status: campaign.status,
    ...(notes.length > 0 ? { notes } : {}),
  };
}

/** The granted organization named `org_name`, else the only granted one (an agent key has exactly one). */
async function organizationFor(ctx: AppContext, orgName: string | undefined): Promise<{ org: { id: string; name: string }; note?: string }> {
  const orgs = await listOrganizations(ctx.deps.db, agentOf(ctx).orgIds);
  const named = orgName === undefined ? undefined : orgs.find((o) => o.name.trim().toLowerCase() === orgName.trim().toLowerCase());
  if (named) return { org: named };
  const [only] = orgs;
  if (!only) throw new NotFoundError('This credential was granted no organization.');
  if (orgs.length > 1) {
    throw new ValidationError([{ loc: ['body', 'org_name'], msg: `Name one of the granted organizations: ${orgs.map((o) => o.name).join(', ')}`, type: 'value_error' }]);
  }
  const note = orgName === undefined ? undefined
    : `Provisioned in "${only.name}", the only organization this credential reaches; org_name "${orgName}" names none of its organizations (POST /api/agent/organizations creates one, reachable with a new key or consent).`;
  return { org: only, note };
}

async function provisionInOrg(db: Knex, config: Config, orgId: string, input: ProvisionInput): Promise<Provisioned> {
  try {
    return await db.transaction(async (trx) => {
      const totals = await lockOrganization(trx, orgId);
      const app = await findOrCreateApp(trx, orgId, input.app);
      const campaign = await findOrCreateCampaign(trx, orgId, app.id, input.campaign);
      let activated = false;
      if (input.activate && campaign.status !== 'active') {
        await assertCanActivate(trx, config, orgId, totals);
        activated = await setCampaignStatus(trx, campaign.id, 'active');
        campaign.status = 'active';
      }
      return { app, campaign, changed: app.created || campaign.created || activated };
    });
  } catch (err) {
    if (isUniqueViolation(err, 'apps_slug_uq')) throw new ConflictError('Another app took this slug meanwhile; check one with GET /api/agent/apps/check-slug/{slug} and retry.');
    throw err;
  }
}

async function findOrCreateApp(trx: Knex.Transaction, orgId: string, a: ProvisionInput['app']): Promise<Provisioned['app']> {
  for (const slug of slugCandidates(orgId, a)) {
    const holder = await findAppBySlug(trx, slug);
    if (holder?.org_id === orgId) return { id: holder.id, slug, sdkKey: holder.sdk_key, created: false };
    if (holder) continue;
    const app = await createApp(trx, {
      orgId, name: a.name, slug, description: a.description, supportEmail: a.support_email,
      iosStoreUrl: a.ios_store_url, androidStoreUrl: a.android_store_url, webUrl: a.web_url,
    });
    return { id: app.id, slug: app.slug, sdkKey: app.sdkKey, created: true, webhookSecret: app.webhookSecret, purchaseApiKey: app.purchaseApiKey };
  }
  throw new ConflictError(a.slug !== undefined
    ? `The slug "${a.slug}" belongs to another organization's app. Pick another (GET /api/agent/apps/check-slug/{slug}).`
    : 'No free slug could be derived from the app name; pass app.slug (GET /api/agent/apps/check-slug/{slug} checks one).');
}

/**
 * A given slug is the only candidate. Without one: the slug of the name, then the same with a suffix derived from
 * the organization, so a name whose slug another organization holds still maps to the same app on every call.
 */
function slugCandidates(orgId: string, a: ProvisionInput['app']): string[] {
  if (a.slug !== undefined) {
    const problem = slugProblem(a.slug);
    if (problem) throw new ValidationError([{ loc: ['body', 'app', 'slug'], msg: problem === 'reserved' ? 'This slug is reserved' : SLUG_RULES, type: problem }]);
    return [a.slug];
  }
  const base = slugify(a.name);
  return [base, `${base}-${createHash('sha256').update(orgId).digest('hex').slice(0, 6)}`].filter(isValidSlug);
}

async function findOrCreateCampaign(trx: Knex.Transaction, orgId: string, appId: string, c: ProvisionInput['campaign']): Promise<Provisioned['campaign']> {
  const existing = await findCampaignByName(trx, appId, c.name);
  if (existing) return { ...existing, created: false };
  const created = await createCampaign(trx, {
    appId, orgId, name: c.name, description: c.description ?? null, campaignType: c.campaign_type,
    commissionPercentage: c.commission_percentage, holdingPeriodDays: c.holding_period_days, status: 'draft',
  });
  return { ...created, created: true };
}
