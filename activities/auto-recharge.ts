// Activities of the auto-recharge workflow. The charge goes through the provider the organization saved its method
// with; its idempotency key is the payment id, so a retried activity (worker killed after Stripe answered, a
// timeout) gets the first PaymentIntent back instead of a second charge. A charge that succeeds at once is credited
// here through actions/top-up.ts creditTopUp (the top-up path: one `topup` entry per payment, then the catch-up); one still
// processing is credited by Stripe's `payment_intent.succeeded` webhook, and whichever comes second credits nothing.
import { Context, log } from '@temporalio/activity';
import type { Knex } from 'knex';
import { providerNamed } from '../clients/payments/select.js';
import { startRecharge, turnOffAutoRecharge } from '../actions/auto-recharge.js';
import { creditTopUp, failTopUp, recordTopUpReference } from '../actions/top-up.js';
import { savedMethodOf } from '../db/auto-recharge.js';
import { findPayment } from '../db/payments.js';
import type { Config } from '../runtime/config.js';
import { rechargeIfLow, startAutoRecharge } from '../workflow-clients/auto-recharge.js';
import type { WalletDrop } from './purchases/index.js';
import type { BeginRechargeResult, ChargeResult } from '../workflows/auto-recharge-messages.js';

/**
 * The purchase activity's signal (PurchaseDeps.onWalletMayDrop): start the organization's recharge when its wallet
 * is below the threshold. The event knows that from its own lock; a repeat names its conversion and one read decides.
 * Uses the worker's own client (activity context). A failure is logged, never thrown: the event is applied, and the
 * next drop or top-up checks again.
 */
export function walletDropSignal({ db, config }: { db: Knex; config: Config }) {
  return async (drop: WalletDrop): Promise<void> => {
    try {
      const { client, info } = Context.current();
      const deps = { client, db, config, taskQueue: info.taskQueue };
      if ('orgId' in drop) await startAutoRecharge(deps, drop.orgId);
      else await rechargeIfLow(deps, drop);
    } catch (err) {
      log.warn('auto-recharge check failed', { ...drop, error: err instanceof Error ? err.message : String(err) });
    }
  };
}

export function createAutoRechargeActivities({ db, config }: { db: Knex; config: Config }) {
  return {
    async beginAutoRecharge({ orgId, requestKey }: { orgId: string; requestKey: string }): Promise<BeginRechargeResult> {
      const start = await startRecharge({ db }, { orgId, requestKey });
      return start.started ? { paymentId: start.payment.id, reason: 'charge due' } : { paymentId: null, reason: start.reason };
    },

    async chargeAutoRecharge(paymentId: string): Promise<ChargeResult> {
      const payment = await findPayment(db, paymentId);
      if (!payment) throw new Error(`payment ${paymentId} not found`);
      if (payment.status === 'succeeded') return { status: 'succeeded', paymentId };
      if (payment.status === 'failed') return { status: 'failed', paymentId, reason: payment.failure ?? 'failed' };
      const fail = async (reason: string): Promise<ChargeResult> => {
        await failTopUp({ db }, { paymentId, reason });
        return { status: 'failed', paymentId, reason };
      };
      const method = await savedMethodOf(db, payment.org_id);
      if (!method) return fail('auto-recharge was turned off before the charge');
      const provider = providerNamed(config, payment.provider);
      if (!provider) return fail(`the ${payment.provider} payment provider is not configured on this server`);
      // A PaymentProviderError (outage) propagates: Temporal retries this activity with the same idempotency key.
      const outcome = await provider.charge({
        paymentId,
        orgId: payment.org_id,
        amountMicros: payment.amount_micros,
        idempotencyKey: `auto-recharge:${paymentId}`,
        method,
      });
      if (outcome.externalId && outcome.externalId !== payment.external_id)
        await recordTopUpReference({ db }, { paymentId, externalId: outcome.externalId });
      if (outcome.status === 'declined') return fail(outcome.reason);
      if (outcome.status === 'processing') return { status: 'processing', paymentId };
      await creditTopUp({ db }, { paymentId, amountMicros: outcome.amountMicros });
      return { status: 'succeeded', paymentId };
    },

    async recordRechargeFailure({ paymentId, reason }: { paymentId: string; reason: string }): Promise<void> {
      await failTopUp({ db }, { paymentId, reason });
    },

    async turnOffAutoRecharge({ orgId, reason }: { orgId: string; reason: string }): Promise<void> {
      await turnOffAutoRecharge({ db }, { orgId, reason });
    },
  };
}
