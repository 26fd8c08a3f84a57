// GET /api/agent/wallet (read-only: money moves only through the signed top-up link a human opens) and the escrow
// rule campaign activation follows (set-status and provision).
import type { Knex } from 'knex';
import { findAutoRechargeSettings, type AutoRechargeSettings } from '../../db/auto-recharge.js';
import { findOrgBillingSettings, getInviteUsage, type InviteUsage, type OrgBillingSettings } from '../../db/organizations.js';
import { getCreatorMoneySummary, type CommissionStateTotals } from '../../db/creator-balances.js';
import { getWalletTotals, type WalletTotals } from '../../db/wallet-ledger.js';
import type { Config } from '../../runtime/config.js';
import { canActivateCampaigns, minEscrowMicros } from '../../lib/escrow.js';
import { activationRefusal, TOPUP_LINK_ENDPOINT } from './escrow-refusals.js';
import { NotFoundError, PaymentRequiredError } from '../../errors/http-errors.js';
import { microsToUsd, walletView } from '../../lib/money.js';
import { assertOrgAccess } from '../auth/guard.js';
import type { AppContext } from '../context.js';
import { inputOf } from '../middleware/validate.js';
import { nextAction } from './next-action.js';
import { agentOf } from './principal.js';

/** `org_id` picks one of the granted organizations (OAuth grants may hold several); default: the first. */
export const walletQuery = { type: 'object', properties: { org_id: { type: 'string', minLength: 1, maxLength: 64 } } } as const;

/**
 * Why the wallet cannot back an activation (the 402 text), or null when it covers the minimum escrow. Pass `totals` already read under the
 * wallet lock.
 */
export async function activationShortfall(db: Knex, config: Config, orgId: string, totals?: WalletTotals): Promise<string | null> {
  const settings = await findOrgBillingSettings(db, orgId);
  const min = minEscrowMicros(settings?.min_escrow_micros, config.MIN_ESCROW_USD);
  const { safeAvailableMicros } = totals ?? (await getWalletTotals(db, orgId));
  return canActivateCampaigns(safeAvailableMicros, min) ? null : activationRefusal(safeAvailableMicros, min);
}

/** 402 naming the top-up link (its tool and endpoint) unless the wallet covers the minimum escrow. */
export async function assertCanActivate(db: Knex, config: Config, orgId: string, totals?: WalletTotals): Promise<void> {
  const shortfall = await activationShortfall(db, config, orgId, totals);
  if (shortfall) throw new PaymentRequiredError(shortfall).pointingAt(nextAction('svc_get_wallet_topup_link'));
}

/** The organization's own limits, else the configured defaults. */
export function inviteLimits(settings: OrgBillingSettings, config: Config): { slots: number; emails: number } {
  return {
    slots: settings.marketplace_slots ?? config.MARKETPLACE_SLOTS,
    emails: settings.daily_email_budget ?? config.DAILY_EMAIL_BUDGET,
  };
}

/** Invite capacity as the wallet answer shows it (the dashboard's creators page shows the same). */
export function inviteCapacityView(slots: number, emails: number, usage: InviteUsage) {
  return {
    marketplace_slots_total: slots,
    marketplace_slots_used: usage.pendingInvitations,
    marketplace_slots_available: Math.max(0, slots - usage.pendingInvitations),
    daily_email_budget: emails,
    emails_sent_today: usage.emailsSentToday,
    emails_remaining_today: Math.max(0, emails - usage.emailsSentToday),
  };
}

function stateView(s: CommissionStateTotals) {
  return { count: s.count, amount: microsToUsd(s.micros), amount_micros: s.micros };
}

const usd = (micros: number | null) => (micros === null ? null : microsToUsd(micros));

/** Read-only for agents: a human changes these on the signed top-up link's page. */
export function autoRechargeView(r: AutoRechargeSettings) {
  return {
    enabled: r.enabled,
    threshold: usd(r.thresholdMicros),
    threshold_micros: r.thresholdMicros,
    amount: usd(r.amountMicros),
    amount_micros: r.amountMicros,
    provider: r.provider,
    payment_method: r.enabled ? r.paymentMethod : null,
    disabled_reason: r.disabledReason,
    last_result: r.last && {
      payment_id: r.last.id,
      status: r.last.status,
      amount: microsToUsd(r.last.amount_micros),
      amount_micros: r.last.amount_micros,
      credited_micros: r.last.credited_micros,
      failure: r.last.failure,
      created_at: r.last.created_at.toISOString(),
      credited_at: r.last.credited_at?.toISOString() ?? null,
    },
    changed_by: 'a human, on the page of POST /api/agent/wallet/topup-link (agents cannot change auto-recharge)',
  };
}

export async function getWalletHandler(ctx: AppContext): Promise<void> {
  const agent = agentOf(ctx);
  const orgId = inputOf<{ org_id?: string }>(ctx).org_id ?? agent.orgIds[0];
  assertOrgAccess(agent, orgId, 'Organization not found');
  const db = ctx.deps.db;
  const config = ctx.deps.config;
  const [totals, settings, usage, creators, recharge] = await Promise.all([
    getWalletTotals(db, orgId!),
    findOrgBillingSettings(db, orgId!),
    getInviteUsage(db, orgId!),
    getCreatorMoneySummary(db, orgId!),
    findAutoRechargeSettings(db, orgId!),
  ]);
  if (!settings || !recharge) throw new NotFoundError('Organization not found');
  const min = minEscrowMicros(settings.min_escrow_micros, config.MIN_ESCROW_USD);
  const { slots, emails } = inviteLimits(settings, config);
  const canActivate = canActivateCampaigns(totals.safeAvailableMicros, min);
  ctx.body = {
    org_id: orgId,
    ...walletView(totals),
    can_activate_campaigns: canActivate,
    min_escrow: microsToUsd(min),
    min_escrow_micros: min,
    invite_capacity: inviteCapacityView(slots, emails, usage),
    // The creators' side (docs/wallet-and-payouts.md "Holding period, clawbacks and payouts"): production commissions by state (their
    // commission amounts; `reserved` above also holds the platform fees) and what creators owe back.
    commissions: {
      held: stateView(creators.commissions.held),
      // Held by a review for a person's decision (reserved, never payable until approved): not in held or unfunded.
      under_review: stateView(creators.commissions.under_review),
      unfunded: stateView(creators.commissions.unfunded),
      payable: stateView(creators.commissions.payable),
      paid: stateView(creators.commissions.paid),
    },
    clawbacks_outstanding: stateView(creators.clawbacksOutstanding),
    // Approved bonus awards the next payout run may pay (beside payable commissions: together, what is payable now).
    bonus_awards_payable: stateView(creators.awardsPayable),
    auto_recharge_enabled: recharge.enabled,
    auto_recharge: autoRechargeView(recharge),
    top_up: `${TOPUP_LINK_ENDPOINT} returns a signed link for a human; no money moves through the agent.`,
  };
}
