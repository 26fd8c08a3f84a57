// Stripe Connect through the `stripe` package: an Express account per creator (under the recipient service agreement
// when the creator's country is not the platform's), single-use Account Links for onboarding, the account's
// readiness read back, and one Transfer per payout from the platform balance (`transfer_group` = the payout run,
// metadata `payout_id`, idempotency key from the payout). Stripe keeps idempotency keys about a day, so a payout
// resumed later first lists the run's transfers and matches `metadata.payout_id` (findTransfer).
import Stripe from 'stripe';
import { exactCents, MICROS_PER_CENT } from '../../lib/money.js';
import { stripeClient, type StripeSettings } from '../payments/stripe.js';
import { PayoutProviderError, type AccountState, type PayoutProvider, type TransferOutcome } from './provider.js';

const usdMicros = (entries: { amount: number; currency: string }[]) =>
  entries.filter((e) => e.currency.toLowerCase() === 'usd').reduce((sum, e) => sum + e.amount * MICROS_PER_CENT, 0);

function unreachable(err: unknown, what: string): PayoutProviderError {
  if (err instanceof PayoutProviderError) return err;
  return new PayoutProviderError(`Stripe could not ${what}: ${err instanceof Error ? err.message : 'error'}`);
}

/** The state of a Stripe account object (also the `account.updated` event's object). */
export function stateOfStripeAccount(account: Stripe.Account): AccountState {
  const r = account.requirements;
  return {
    transfersActive: account.capabilities?.transfers === 'active',
    payoutsEnabled: account.payouts_enabled === true,
    requirementsDue: [...(r?.currently_due ?? []), ...(r?.past_due ?? [])],
    disabledReason: r?.disabled_reason ?? null,
  };
}

/** Refusals that a retry of the same call cannot change: the money stays, the payout's lines go back to payable. */
function transferRefusal(err: unknown): TransferOutcome | undefined {
  if (!(err instanceof Stripe.errors.StripeError) || err.rawType !== 'invalid_request_error') return undefined;
  return {
    status: 'refused',
    reason: `Stripe refused the transfer: ${err.message}`,
    insufficientFunds: err.code === 'balance_insufficient',
  };
}

export function stripeConnectProvider(settings: StripeSettings): PayoutProvider {
  const stripe = stripeClient(settings);
  return {
    name: 'stripe',
    label: 'Payouts through Stripe Connect: Stripe verifies the creator, collects tax forms and pays to their bank.',
    async createAccount({ creatorId, email, country, platformCountry }) {
      try {
        const account = await stripe.accounts.create(
          {
            type: 'express',
            country,
            ...(email ? { email } : {}),
            capabilities: { transfers: { requested: true } },
            ...(country !== platformCountry ? { tos_acceptance: { service_agreement: 'recipient' } } : {}),
            metadata: { creator_id: creatorId },
          },
          { idempotencyKey: `connect-account:${creatorId}:${country}` },
        );
        return { externalId: account.id };
      } catch (err) {
        throw unreachable(err, 'create the payout account');
      }
    },
    async onboardingLink({ externalId, refreshUrl, returnUrl }) {
      try {
        const link = await stripe.accountLinks.create({
          account: externalId,
          refresh_url: refreshUrl,
          return_url: returnUrl,
          type: 'account_onboarding',
        });
        return link.url;
      } catch (err) {
        throw unreachable(err, 'make an onboarding link');
      }
    },
    async accountState(externalId) {
      try {
        return stateOfStripeAccount(await stripe.accounts.retrieve(externalId));
      } catch (err) {
        throw unreachable(err, 'read the payout account');
      }
    },
    async findTransfer({ group, payoutId }) {
      try {
        for await (const transfer of stripe.transfers.list({ transfer_group: group, limit: 100 })) {
          if (transfer.metadata?.payout_id === payoutId) return transfer.id;
        }
        return undefined;
      } catch (err) {
        throw unreachable(err, "list the run's transfers");
      }
    },
    async createTransfer(r) {
      try {
        const transfer = await stripe.transfers.create(
          {
            // The net in cents exactly: a net with a fraction of a cent throws here rather than be rounded.
            amount: exactCents(r.amountMicros),
            currency: 'usd',
            destination: r.destination,
            transfer_group: r.group,
            metadata: { payout_id: r.payoutId, org_id: r.orgId },
          },
          { idempotencyKey: r.idempotencyKey },
        );
        return { status: 'created', transferId: transfer.id };
      } catch (err) {
        const refused = transferRefusal(err);
        if (refused) return refused;
        throw unreachable(err, 'create the transfer');
      }
    },
    async balance() {
      try {
        const b = await stripe.balance.retrieve();
        return { availableMicros: usdMicros(b.available), pendingMicros: usdMicros(b.pending) };
      } catch (err) {
        throw unreachable(err, 'read the platform balance');
      }
    },
    async sentTransfers() {
      try {
        const sent = [];
        for await (const tr of stripe.transfers.list({ limit: 100 })) {
          const payoutId = tr.metadata?.payout_id;
          if (payoutId && tr.currency.toLowerCase() === 'usd')
            sent.push({
              payoutId,
              transferId: tr.id,
              amountMicros: tr.amount * MICROS_PER_CENT,
              reversedMicros: tr.amount_reversed * MICROS_PER_CENT,
            });
        }
        return sent;
      } catch (err) {
        throw unreachable(err, 'list the transfers');
      }
    },
    async processingFeesMicros() {
      try {
        let fees = 0;
        for await (const txn of stripe.balanceTransactions.list({ limit: 100 }))
          if (txn.currency.toLowerCase() === 'usd') fees += txn.fee * MICROS_PER_CENT;
        return fees;
      } catch (err) {
        throw unreachable(err, 'list the balance transactions');
      }
    },
  };
}
