// Payout tests' shared steps: the connect routes mounted with a stand-in for the creator portal's principal (the
// portal is issue 29; a header names the creator), and reading a payout's transfer state.
import type { Knex } from 'knex';
import { payoutConnectRouter } from '../../api/creator-portal/payout-routes.js';
import type { SvcApp } from '../../api/app.js';
import { testModePayoutProvider } from '../../clients/payouts/test-mode.js';
import { savePayoutAccount, updateAccountState } from '../../db/payout-accounts-writes.js';
import type { PayoutRow } from '../../schema/types.js';
import type { StripeStub } from '../stubs/stripe.js';
import { request } from './http.js';
import { waitFor } from './svc-processes.js';

export const CREATOR_HEADER = 'x-test-creator';

export function mountConnect(app: SvcApp): void {
  const router = payoutConnectRouter({ creatorOf: (ctx) => ctx.get(CREATOR_HEADER) || undefined });
  app.use(router.routes());
  app.use(router.allowedMethods());
}

export async function payoutsOf(db: Knex, orgId: string): Promise<PayoutRow[]> {
  return db('payouts').where('org_id', orgId).orderBy('created_at').select<PayoutRow[]>('*');
}

/** Waits until the organization's payout of `creatorId` is in `status`; answers it. */
export async function payoutIn(
  db: Knex,
  orgId: string,
  creatorId: string,
  status: PayoutRow['transfer_status'],
  timeoutMs = 30_000,
): Promise<PayoutRow> {
  let found: PayoutRow | undefined;
  await waitFor(
    async () => {
      found = (await payoutsOf(db, orgId)).reverse().find((p) => p.creator_id === creatorId && p.transfer_status === status);
      return Boolean(found);
    },
    `a ${status} payout`,
    timeoutMs,
  );
  return found!;
}

/** The creator connects through the stub and finishes onboarding; Stripe's account.updated makes the account ready. */
export async function connectReady(baseUrl: string, db: Knex, stub: StripeStub, connectSecret: string, creatorId: string): Promise<void> {
  const started = await request(baseUrl, 'POST', '/creator/payouts/connect', {
    body: { country: 'US' },
    headers: { [CREATOR_HEADER]: creatorId },
  });
  if (started.status !== 303) throw new Error(`${started.status} ${started.text}`);
  const row = await db('payout_accounts').where('creator_id', creatorId).first<{ external_id: string }>('external_id');
  const account = stub.connect.completeOnboarding(row.external_id);
  const event = stub.signedObjectEvent('account.updated', account, connectSecret, account.id);
  const res = await request(baseUrl, 'POST', '/api/webhooks/stripe-connect', {
    rawBody: event.payload,
    headers: { 'content-type': 'application/json', 'stripe-signature': event.signature },
  });
  if (res.status !== 200 || res.body.handled !== true) throw new Error(`${res.status} ${res.text}`);
}

/**
 * The creator connects a payout account in the embedded test mode (ready at once), through the provider and the same
 * db/ functions as the connect route: every payout run holds over a creator without a ready account.
 */
export async function connectTestAccount(db: Knex, creatorId: string): Promise<void> {
  const provider = testModePayoutProvider({ PAYOUT_TEST_AVAILABLE_USD: undefined, PAYOUT_TEST_PENDING_USD: 0 });
  const { externalId } = await provider.createAccount({ creatorId, email: null, country: 'US', platformCountry: 'US' });
  await savePayoutAccount(db, { creatorId, provider: 'test', externalId, country: 'US' });
  await updateAccountState(db, creatorId, await provider.accountState(externalId));
}
