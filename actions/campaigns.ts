// A campaign's writes as business actions (db/campaigns-writes.ts does the SQL): creating one (with its bonus rules),
// its terms, its status, its localized copy. The agent API (api/agent/campaign-writes.ts, localize.ts), the dashboard's
// bonus-rules editor and svc_provision (actions/provision.ts) call them; callers forget their caches.
import type { Knex } from 'knex';
import type { CampaignCopy, CampaignTermsPatch, NewCampaign } from '../db/campaigns.js';
import {
  createCampaign,
  mergeCampaignI18n,
  saveFraudSignalActions,
  setCampaignStatus,
  updateCampaignTerms,
} from '../db/campaigns-writes.js';
import { appendAudit, type AuditEntry } from '../db/audit-log.js';
import { FRAUD_SIGNALS, isSignalAction, type SignalActions } from '../lib/fraud-signals/index.js';
import { normalizeBonusRules, type BonusRuleInput } from '../lib/bonus-rules.js';
import type { Config } from '../runtime/config.js';
import { ConflictError, NotFoundError, ValidationError, type FieldProblem } from '../errors/http-errors.js';
import { findBasisSupport } from '../db/campaigns.js';
import type { CampaignStatus } from '../schema/types.js';
import type { AgentEdge } from './agent-edge.js';

type Deps = { db: Knex };

export type CampaignUpdate = Omit<CampaignTermsPatch, 'bonus_rules'> & { bonus_rules?: BonusRuleInput[] };

/** A new campaign; its bonus rules, given as entered, are normalized first (their checks answer 422). */
export async function addCampaign(
  deps: Deps,
  input: Omit<NewCampaign, 'bonusRules'> & { bonusRules?: BonusRuleInput[] },
): Promise<{ id: string; status: CampaignStatus }> {
  if (input.commissionBasis === 'proceeds') await assertProceedsPossible(deps.db, { appId: input.appId });
  return createCampaign(deps.db, { ...input, bonusRules: normalizeBonusRules(input.bonusRules ?? []) });
}

/** New terms (and bonus rules, replacing the old ones): the rules' own checks (422) run before anything is written. */
export async function updateCampaign(deps: Deps, input: { campaignId: string; update: CampaignUpdate }): Promise<void> {
  const { bonus_rules: rules, ...terms } = input.update;
  if (terms.commission_basis === 'proceeds') await assertProceedsPossible(deps.db, { campaignId: input.campaignId });
  await updateCampaignTerms(deps.db, input.campaignId, { ...terms, ...(rules ? { bonus_rules: normalizeBonusRules(rules) } : {}) });
}

/**
 * The proceeds basis needs each purchase's storefront or the provider's fractions. An app whose own server reports
 * its purchases (it has recorded one through POST /api/webhooks/purchase) sends neither, so no tax table applies to
 * those purchases: `proceeds` is refused with 422 naming the field (docs/purchase-pipeline.md "Commission basis").
 */
async function assertProceedsPossible(db: Knex, of: { appId: string } | { campaignId: string }): Promise<void> {
  const app = await findBasisSupport(db, of);
  if (app?.takes_server_reports) {
    throw new ValidationError([
      {
        loc: ['body', 'commission_basis'],
        msg:
          "proceeds needs each purchase's storefront or the subscription provider's fractions, and this app's own server " +
          'reports its purchases (POST /api/webhooks/purchase), which carry neither: no tax table applies. Use gross.',
        type: 'value_error.basis_unsupported',
      },
    ]);
  }
}

/**
 * Activates or pauses the campaign; an archived one never changes (409), and activating needs the wallet to cover the
 * minimum escrow (402). Whether the status changed.
 */
export async function changeCampaignStatus(
  deps: Deps & { config: Config; edge: Pick<AgentEdge, 'assertCanActivate'> },
  input: { campaign: { id: string; org_id: string; status: unknown }; status: 'active' | 'paused' },
): Promise<boolean> {
  const { campaign, status } = input;
  if (campaign.status === 'archived') throw new ConflictError('This campaign is archived; its status cannot change.');
  if (status === 'active' && campaign.status !== 'active') await deps.edge.assertCanActivate(deps.db, deps.config, campaign.org_id);
  return setCampaignStatus(deps.db, campaign.id, status);
}

/** Under the campaign's row lock, `patchFor` derives the locales to merge from the current copy (null: no write). */
export async function localizeCampaign(
  deps: Deps,
  input: { campaignId: string; patchFor: (current: CampaignCopy) => Record<string, unknown> | null },
): Promise<CampaignCopy | undefined> {
  return mergeCampaignI18n(deps.db, input.campaignId, input.patchFor);
}

/** A choice of the signal settings form: one of the actions, or the signal's default (DEFAULT_SIGNAL_ACTION). */
export const SIGNAL_DEFAULT = 'default';

/**
 * A campaign's fraud-signal settings, from the choices made per signal (an action, or `default` / absent for the
 * signal's default, which is then not stored so a later change of the defaults applies): 422 naming each signal whose
 * choice is none of them, nothing written. Audited with the actor; answers the settings stored.
 */
export async function setFraudSignalActions(
  deps: Deps,
  input: {
    campaign: { id: string; org_id: string };
    choices: Record<string, unknown>;
    actor: Pick<AuditEntry, 'actorType' | 'actorId' | 'requestId' | 'ip'>;
  },
): Promise<SignalActions> {
  const actions: SignalActions = {};
  const problems: FieldProblem[] = [];
  for (const signal of FRAUD_SIGNALS) {
    const choice = input.choices[signal];
    if (choice === undefined || choice === SIGNAL_DEFAULT) continue;
    if (isSignalAction(choice)) actions[signal] = choice;
    else problems.push({ loc: ['body', signal], msg: `must be one of off, flag, hold or ${SIGNAL_DEFAULT}`, type: 'enum' });
  }
  if (problems.length) throw new ValidationError(problems);
  await deps.db.transaction(async (trx) => {
    if (!(await saveFraudSignalActions(trx, input.campaign.id, actions))) throw new NotFoundError('Campaign not found.');
    await appendAudit(trx, {
      orgId: input.campaign.org_id,
      ...input.actor,
      action: 'campaign.fraud_signal_actions',
      targetType: 'campaign',
      targetId: input.campaign.id,
      details: { fraud_signal_actions: actions },
    });
  });
  return actions;
}
