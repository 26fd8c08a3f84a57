// Auto-recharge (docs/wallet-and-payouts.md "Auto-recharge"): the one owner of its writes. A human sets it on the
// signed top-up link's page or the dashboard's wallet page (api/dashboard/wallet/auto-recharge-page.tsx validates the form
// and calls setAutoRecharge): test mode saves the simulated card at once; Stripe records a setup and answers a
// redirect to Checkout in setup mode, whose signed webhook completes it (completeCardSetup). The auto-recharge
// workflow's activities (activities/auto-recharge.ts) begin a recharge under the organization lock, record its
// charge's outcome through actions/top-up.ts, and turn it off after repeated failures.
import type { Knex } from 'knex';
import type { RechargeProvider } from '../clients/payments/provider.js';
import { testCardMethod, type TestCard } from '../clients/payments/test-mode.js';
import { savedCustomerOf, type SavedMethodRow } from '../db/auto-recharge.js';
import {
  beginAutoRecharge as beginRecharge,
  completeAutoRechargeSetup,
  disableAutoRecharge,
  enableAutoRecharge,
  failAutoRechargeSetup,
  recordSetupSession,
  startAutoRechargeSetup,
  type RechargeStart,
} from '../db/auto-recharge-writes.js';

export type { RechargeStart } from '../db/auto-recharge-writes.js';

export interface AutoRechargeDeps {
  db: Knex;
  /** The auto-recharge check after it was turned on or its card saved (api/recharge-check.ts). */
  checkAutoRecharge: (orgId: string) => Promise<void>;
}

export interface AutoRechargeChange {
  orgId: string;
  provider: RechargeProvider;
  /** Off; or on with these amounts (test mode: the simulated card picked). */
  set: { on: false } | { on: true; thresholdMicros: number; amountMicros: number; testCard: TestCard };
  /** Where the provider sends the human back after the card setup; `?cancelled=1` is added for a cancel. */
  returnUrl: (setupId: string) => string;
}

export type AutoRechargeOutcome =
  | { kind: 'off' }
  /** Test mode: on now, with the simulated card. */
  | { kind: 'on' }
  /** Stripe: the human saves the card there; the webhook turns it on. */
  | { kind: 'redirect'; url: string }
  /** The provider could not start the card setup: nothing changed. */
  | { kind: 'setup_failed' };

export async function setAutoRecharge(deps: AutoRechargeDeps, input: AutoRechargeChange): Promise<AutoRechargeOutcome> {
  const { db } = deps;
  const { orgId, provider, set } = input;
  if (!set.on) {
    await disableAutoRecharge(db, orgId, null);
    return { kind: 'off' };
  }
  const { thresholdMicros, amountMicros } = set;
  if (provider.name === 'test' || !provider.startSetup) {
    await enableAutoRecharge(db, orgId, { provider: provider.name, thresholdMicros, amountMicros, method: testCardMethod(set.testCard) });
    // Enabling below the threshold recharges now: the wallet is already short.
    await deps.checkAutoRecharge(orgId);
    return { kind: 'on' };
  }
  const setup = await startAutoRechargeSetup(db, { orgId, thresholdMicros, amountMicros });
  const customerId = await savedCustomerOf(db, orgId);
  const back = input.returnUrl(setup.id);
  try {
    const start = await provider.startSetup({
      setupId: setup.id,
      orgId,
      customerId,
      successUrl: back,
      cancelUrl: `${back}?cancelled=1`,
    });
    await db.transaction((trx) => recordSetupSession(trx, setup.id, start.externalId, start.customerId));
    return { kind: 'redirect', url: start.url };
  } catch (err) {
    await failAutoRechargeSetup(db, setup.id, err instanceof Error ? err.message : 'error');
    return { kind: 'setup_failed' };
  }
}

/** The provider's webhook: the setup saved the card; a pending setup completes once and turns auto-recharge on. */
export async function completeCardSetup(
  deps: AutoRechargeDeps,
  input: { setupId: string; orgId: string; method: SavedMethodRow },
): Promise<boolean> {
  const completed = await deps.db.transaction((trx) => completeAutoRechargeSetup(trx, input.setupId, input.method));
  if (completed) await deps.checkAutoRecharge(input.orgId);
  return completed;
}

/** The provider's webhook: the card setup expired; a pending setup fails with the reason. */
export async function failCardSetup(deps: Pick<AutoRechargeDeps, 'db'>, input: { setupId: string; reason: string }): Promise<void> {
  await failAutoRechargeSetup(deps.db, input.setupId, input.reason);
}

/** The workflow's first step: under the organization lock, whether a recharge is due, and its payment if so. */
export async function startRecharge(
  deps: Pick<AutoRechargeDeps, 'db'>,
  input: { orgId: string; requestKey: string },
): Promise<RechargeStart> {
  return deps.db.transaction((trx) => beginRecharge(trx, input.orgId, input.requestKey));
}

/** The service turns auto-recharge off after repeated failures; the reason is shown to the human. */
export async function turnOffAutoRecharge(deps: Pick<AutoRechargeDeps, 'db'>, input: { orgId: string; reason: string }): Promise<void> {
  await disableAutoRecharge(deps.db, input.orgId, input.reason);
}
