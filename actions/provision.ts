// svc_provision's one transaction (api/agent/provision.ts translates the request and the answer; its head states the
// rules): the organization (found, or created for an OAuth grant), the app matched by slug and the campaign by name,
// activated as asked, every write serialized per organization by the wallet lock.
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { createApp } from '../db/apps-writes.js';
import { findAppBySlug } from '../db/apps.js';
import { findCampaignByName } from '../db/campaigns.js';
import { createCampaign, setCampaignStatus } from '../db/campaigns-writes.js';
import { lockOauthGrantOrgs } from '../db/oauth-grants-writes.js';
import { listOrganizations, type OrgOverview } from '../db/organizations.js';
import { lockOrganization } from '../db/wallet-ledger-writes.js';
import type { Config } from '../runtime/config.js';
import type { CampaignType, CommissionBasis } from '../schema/types.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors/http-errors.js';
import { isUniqueViolation } from '../errors/pg-errors.js';
import type { AgentPrincipal } from '../lib/principal.js';
import { isValidSlug, SLUG_RULES, slugify, slugProblem } from '../lib/slugs.js';
import type { AgentEdge } from './agent-edge.js';
import { createOrganizationOf } from './organizations.js';

export interface ProvisionInput {
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
    commission_basis?: CommissionBasis;
    campaign_type: CampaignType;
  };
  activate?: boolean;
}

export interface Provisioned {
  org: { id: string; name: string; created: boolean };
  app: { id: string; slug: string; sdkKey: string; created: boolean; webhookSecret?: string; purchaseApiKey?: string };
  campaign: { id: string; status: string; created: boolean };
  /** Why the defaulted activation did not happen (the wallet is short), else null. */
  notActivated: string | null;
  changed: boolean;
}

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** The granted organization named `org_name` (an OAuth grant: created when it has none by that name), else the only granted one. */
async function organizationFor(
  trx: Knex.Transaction,
  edge: AgentEdge,
  agent: AgentPrincipal,
  orgName: string | undefined,
): Promise<Provisioned['org']> {
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
  if (agent.authMode !== 'oauth') throw notThisKeysOrganization(edge, orgName, orgs);
  // Under the grant's lock, so concurrent calls naming the same new organization create it once.
  const reached = await listOrganizations(trx, await lockOauthGrantOrgs(trx, agent.id));
  const existing = reached.find((o) => sameName(o.name, orgName));
  if (existing) return { ...existing, created: false };
  const created = await createOrganizationOf(trx, agent, orgName);
  return { id: created.id, name: created.name, created: true };
}

function notThisKeysOrganization(edge: AgentEdge, orgName: string, orgs: readonly OrgOverview[]): ValidationError {
  const next = edge.nextAction('svc_create_org');
  return new ValidationError([
    {
      loc: ['body', 'org_name'],
      type: 'value_error',
      msg:
        `"${orgName}" is not this agent key's organization ` +
        `(${orgs.map((o) => `"${o.name}"`).join(', ')}): an agent key works in its own organization only. ` +
        `Leave org_name out to provision there, or create the organization ` +
        `with ${next.next_tool} (${next.call}) and ask the human for a key of it.`,
    },
  ]).pointingAt(next);
}

export async function provision(
  deps: { db: Knex; config: Config; edge: AgentEdge },
  { agent, input }: { agent: AgentPrincipal; input: ProvisionInput },
): Promise<Provisioned> {
  const { db, config, edge } = deps;
  try {
    return await db.transaction(async (trx) => {
      const org = await organizationFor(trx, edge, agent, input.org_name);
      const totals = await lockOrganization(trx, org.id);
      const app = await findOrCreateApp(trx, edge, org.id, input.app);
      const campaign = await findOrCreateCampaign(trx, org.id, app.id, input.campaign);
      // Left out, activate means: a draft campaign, if the wallet allows (a paused one was paused by a human).
      const wanted = input.activate ?? campaign.status === 'draft';
      let notActivated: string | null = null;
      let activated = false;
      if (wanted && campaign.status !== 'active') {
        if (input.activate === true) await edge.assertCanActivate(trx, config, org.id, totals);
        else notActivated = await edge.activationShortfall(trx, config, org.id, totals);
        if (!notActivated) {
          activated = await setCampaignStatus(trx, campaign.id, 'active');
          campaign.status = 'active';
        }
      }
      return { org, app, campaign, notActivated, changed: org.created || app.created || campaign.created || activated };
    });
  } catch (err) {
    if (isUniqueViolation(err, 'apps_slug_uq')) {
      const next = edge.nextAction('svc_check_slug');
      throw new ConflictError(`Another app took this slug meanwhile; check one with ${next.call} and retry.`).pointingAt(next);
    }
    throw err;
  }
}

async function findOrCreateApp(
  trx: Knex.Transaction,
  edge: AgentEdge,
  orgId: string,
  a: ProvisionInput['app'],
): Promise<Provisioned['app']> {
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
  const next = edge.nextAction('svc_check_slug');
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
    commissionBasis: c.commission_basis,
    status: 'draft',
  });
  return { ...created, created: true };
}
