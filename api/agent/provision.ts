// POST /api/agent/provision: organization, app and campaign in one idempotent call, activated unless told not to.
// * Organization: the granted one named `org_name` (else the only granted one). A name the credential does not reach
//   creates that organization only for an OAuth grant (owned by its human and added to the grant: the consent covers
//   organizations the client creates; a repeat finds it by name); an agent key belongs to one organization, so there
//   it is 422 pointing at svc_create_org.
// * App matched by slug, campaign by name within the app: the same input twice answers the same ids and changes
//   nothing (PATCH changes existing rows). The SDK key is public and always shown; the webhook secret and purchase API
//   key only in the answer that created the app.
// * `activate` defaults to true. Left out, it activates a draft campaign when the wallet covers the minimum escrow and
//   otherwise leaves it in draft, answering `campaign_status: "draft"` with the top-up link as the next action (a
//   paused campaign stays paused: a human paused it). `activate: true` activates a draft or paused campaign or
//   refuses the whole call (402, nothing written).
// Every write of one call is one transaction, serialized per organization by the wallet lock.
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { lockOauthGrantOrgs } from '../../db/oauth-grants.js';
import { listOrganizations, type OrgOverview } from '../../db/organizations.js';
import { findAppBySlug, createApp } from '../../db/apps.js';
import { findCampaignByName, setCampaignStatus, createCampaign } from '../../db/campaigns.js';
import { lockOrganization } from '../../db/wallet-ledger-writes.js';
import { ConflictError, NotFoundError, ValidationError } from '../../lib/errors.js';
import { isUniqueViolation } from '../../lib/pg-errors.js';
import { isValidSlug, SLUG_RULES, slugify, slugProblem } from '../../lib/slugs.js';
import type { AppContext } from '../context.js';
import { inputOf } from '../middleware/validate.js';
import { forgetAppCaches } from './app-caches.js';
import { APP_FIELDS, CAMPAIGN_FIELDS, CAMPAIGN_TYPE, type AgentCampaignType } from './field-schemas.js';
import { nextAction } from './next-action.js';
import { createOrganizationOf } from './organizations.js';
import { agentOf } from './principal.js';
import { activationShortfall, assertCanActivate } from './wallet.js';

const { name, description, support_email, ios_store_url, android_store_url, web_url } = APP_FIELDS;

export const provisionBody = {
  type: 'object',
  additionalProperties: false,
  required: ['app', 'campaign'],
  properties: {
    org_name: { type: 'string', minLength: 1, maxLength: 200 },
    app: {
      type: 'object',
      additionalProperties: false,
      required: ['name'],
      properties: {
        name,
        slug: { type: 'string', minLength: 1, maxLength: 63 },
        description,
        support_email,
        ios_store_url,
        android_store_url,
        web_url,
      },
    },
    campaign: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'commission_percentage'],
      properties: { ...CAMPAIGN_FIELDS, campaign_type: CAMPAIGN_TYPE },
    },
    // No `default` keyword: left out is not the same as true (see the header).
    activate: {
      type: 'boolean',
      description:
        'Default true. Left out, a wallet below the minimum escrow leaves the campaign in draft (next_tool svc_get_wallet_topup_link); true refuses the whole call with 402 instead.',
    },
  },
} as const;

interface ProvisionInput {
  org_name?: string;
  app: {
    name: string;
    slug?: string;
    description?: string | null;
    support_email?: string | null;
    ios_store_url?: string | null;
    android_store_url?: string | null;
    web_url?: string | null;
  };
  campaign: {
    name: string;
    description?: string | null;
    commission_percentage: number;
    holding_period_days?: number;
    campaign_type: AgentCampaignType;
  };
  activate?: boolean;
}

interface Provisioned {
  org: { id: string; name: string; created: boolean };
  app: { id: string; slug: string; sdkKey: string; created: boolean; webhookSecret?: string; purchaseApiKey?: string };
  campaign: { id: string; status: string; created: boolean };
  /** Why the defaulted activation did not happen (the wallet is short), else null. */
  notActivated: string | null;
  changed: boolean;
}

export async function provisionHandler(ctx: AppContext): Promise<void> {
  const input = inputOf<ProvisionInput>(ctx);
  const { org, app, campaign, notActivated, changed } = await provision(ctx, input);
  if (changed) forgetAppCaches(ctx, app.id);
  const topUp = notActivated ? nextAction('svc_get_wallet_topup_link') : undefined;
  const notes = [
    ...(org.created ? [`Created the organization "${org.name}", owned by the human behind this OAuth grant and added to the grant.`] : []),
    ...(app.created
      ? []
      : [
          `The app already existed: its webhook secret and purchase API key were shown only when it was created. ${nextAction('svc_regenerate_webhook_secret', { app_id: app.id }).call} issues a new webhook secret.`,
        ]),
    ...(notActivated && topUp
      ? [
          `The campaign stays in draft. ${notActivated} As a tool: ${topUp.next_tool}, then svc_provision again (or svc_set_campaign_status) activates it.`,
        ]
      : []),
  ];
  ctx.status = org.created || app.created || campaign.created ? 201 : 200;
  ctx.body = {
    org_id: org.id,
    app_id: app.id,
    campaign_id: campaign.id,
    slug: app.slug,
    sdk_key: app.sdkKey,
    webhook_url: `${ctx.deps.config.BASE_URL}/api/webhooks/subprovider/${app.id}`,
    created: { org: org.created, app: app.created, campaign: campaign.created },
    ...(app.created ? { webhook_secret: app.webhookSecret, purchase_api_key: app.purchaseApiKey } : {}),
    campaign_status: campaign.status,
    ...topUp,
    ...(notes.length > 0 ? { notes } : {}),
  };
}

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** The granted organization named `org_name` (an OAuth grant: created when it has none by that name), else the only granted one. */
async function organizationFor(trx: Knex.Transaction, ctx: AppContext, orgName: string | undefined): Promise<Provisioned['org']> {
  const agent = agentOf(ctx);
  const orgs = await listOrganizations(trx, agent.orgIds);
  if (orgName === undefined) {
    const [only] = orgs;
    if (!only) throw new NotFoundError('This credential was granted no organization.');
    if (orgs.length > 1) {
      throw new ValidationError([
        {
          loc: ['body', 'org_name'],
          msg: `Name one of the granted organizations: ${orgs.map((o) => o.name).join(', ')}`,
          type: 'value_error',
        },
      ]);
    }
    return { ...only, created: false };
  }
  const named = orgs.find((o) => sameName(o.name, orgName));
  if (named) return { ...named, created: false };
  if (agent.authMode !== 'oauth') throw notThisKeysOrganization(orgName, orgs);
  // Under the grant's lock, so concurrent calls naming the same new organization create it once.
  const reached = await listOrganizations(trx, await lockOauthGrantOrgs(trx, agent.id));
  const existing = reached.find((o) => sameName(o.name, orgName));
  if (existing) return { ...existing, created: false };
  const created = await createOrganizationOf(trx, agent, orgName);
  return { id: created.id, name: created.name, created: true };
}

function notThisKeysOrganization(orgName: string, orgs: readonly OrgOverview[]): ValidationError {
  const next = nextAction('svc_create_org');
  return new ValidationError([
    {
      loc: ['body', 'org_name'],
      type: 'value_error',
      msg:
        `"${orgName}" is not this agent key's organization (${orgs.map((o) => `"${o.name}"`).join(', ')}): an agent key works in its own organization only. ` +
        `Leave org_name out to provision there, or create the organization with ${next.next_tool} (${next.call}) and ask the human for a key of it.`,
    },
  ]).pointingAt(next);
}

async function provision(ctx: AppContext, input: ProvisionInput): Promise<Provisioned> {
  const { db, config } = ctx.deps;
  try {
    return await db.transaction(async (trx) => {
      const org = await organizationFor(trx, ctx, input.org_name);
      const totals = await lockOrganization(trx, org.id);
      const app = await findOrCreateApp(trx, org.id, input.app);
      const campaign = await findOrCreateCampaign(trx, org.id, app.id, input.campaign);
      // Left out, activate means: a draft campaign, if the wallet allows (a paused one was paused by a human).
      const wanted = input.activate ?? campaign.status === 'draft';
      let notActivated: string | null = null;
      let activated = false;
      if (wanted && campaign.status !== 'active') {
        if (input.activate === true) await assertCanActivate(trx, config, org.id, totals);
        else notActivated = await activationShortfall(trx, config, org.id, totals);
        if (!notActivated) {
          activated = await setCampaignStatus(trx, campaign.id, 'active');
          campaign.status = 'active';
        }
      }
      return { org, app, campaign, notActivated, changed: org.created || app.created || campaign.created || activated };
    });
  } catch (err) {
    if (isUniqueViolation(err, 'apps_slug_uq')) {
      const next = nextAction('svc_check_slug');
      throw new ConflictError(`Another app took this slug meanwhile; check one with ${next.call} and retry.`).pointingAt(next);
    }
    throw err;
  }
}

async function findOrCreateApp(trx: Knex.Transaction, orgId: string, a: ProvisionInput['app']): Promise<Provisioned['app']> {
  for (const slug of slugCandidates(orgId, a)) {
    const holder = await findAppBySlug(trx, slug);
    if (holder?.org_id === orgId) return { id: holder.id, slug, sdkKey: holder.sdk_key, created: false };
    if (holder) continue;
    const app = await createApp(trx, {
      orgId,
      name: a.name,
      slug,
      description: a.description,
      supportEmail: a.support_email,
      iosStoreUrl: a.ios_store_url,
      androidStoreUrl: a.android_store_url,
      webUrl: a.web_url,
    });
    return {
      id: app.id,
      slug: app.slug,
      sdkKey: app.sdkKey,
      created: true,
      webhookSecret: app.webhookSecret,
      purchaseApiKey: app.purchaseApiKey,
    };
  }
  const next = nextAction('svc_check_slug');
  throw new ConflictError(
    a.slug !== undefined
      ? `The slug "${a.slug}" belongs to another organization's app. Pick another (${next.call}).`
      : `No free slug could be derived from the app name; pass app.slug (${next.call} checks one).`,
  ).pointingAt(next);
}

/**
 * A given slug is the only candidate. Without one: the slug of the name, then the same with a suffix derived from
 * the organization, so a name whose slug another organization holds still maps to the same app on every call.
 */
function slugCandidates(orgId: string, a: ProvisionInput['app']): string[] {
  if (a.slug !== undefined) {
    const problem = slugProblem(a.slug);
    if (problem)
      throw new ValidationError([
        { loc: ['body', 'app', 'slug'], msg: problem === 'reserved' ? 'This slug is reserved' : SLUG_RULES, type: problem },
      ]);
    return [a.slug];
  }
  const base = slugify(a.name);
  return [base, `${base}-${createHash('sha256').update(orgId).digest('hex').slice(0, 6)}`].filter(isValidSlug);
}

async function findOrCreateCampaign(
  trx: Knex.Transaction,
  orgId: string,
  appId: string,
  c: ProvisionInput['campaign'],
): Promise<Provisioned['campaign']> {
  const existing = await findCampaignByName(trx, appId, c.name);
  if (existing) return { ...existing, created: false };
  const created = await createCampaign(trx, {
    appId,
    orgId,
    name: c.name,
    description: c.description ?? null,
    campaignType: c.campaign_type,
    commissionPercentage: c.commission_percentage,
    holdingPeriodDays: c.holding_period_days,
    status: 'draft',
  });
  return { ...created, created: true };
}
