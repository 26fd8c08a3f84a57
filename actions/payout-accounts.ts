// Connecting a creator's payout account (docs/wallet-and-payouts.md "Connecting an account"): the one owner of the
// payout accounts' writes (the portal's connect flow, api/creator-portal/payout-routes.ts; the Connect webhook,
// api/webhooks/stripe-connect.ts; the demo history). Keyed by creator id, whatever principal the creator portal
// authenticates: the portal passes the id in. Starting opens the account once
// (an Express account; recipient service agreement when the creator's country is not the platform's) and makes a
// fresh single-use onboarding link on every call. Coming back proves nothing: the account's state is read from the
// provider and readiness decided from it (lib/payout-readiness.ts); account.updated keeps it current afterwards.
import type { Knex } from 'knex';
import { payoutProviderNamed, payoutProviderOf } from '../clients/payouts/select.js';
import type { AccountState, PayoutProvider } from '../clients/payouts/provider.js';
import { creatorEmail } from '../db/creator-email.js';
import { findPayoutAccount, stateOfRow } from '../db/payout-accounts.js';
import { savePayoutAccount, updateAccountState, updateAccountStateByExternalId } from '../db/payout-accounts-writes.js';
import { recordBankPayout, type BankPayout } from '../db/creator-bank-payouts-writes.js';
import { testModePayoutProvider } from '../clients/payouts/test-mode.js';
import type { Config } from '../runtime/config.js';
import { NotFoundError, UnavailableError, ValidationError } from '../errors/http-errors.js';
import { isPayoutCountry } from '../lib/payout-countries.js';
import { isAccountReady, readinessProblems } from '../lib/payout-readiness.js';
import type { PayoutAccountRow, PayoutProviderName } from '../schema/types.js';

export interface ConnectDeps {
  db: Knex;
  config: Config;
}
export interface ConnectUrls {
  returnUrl: string;
  refreshUrl: string;
}

export interface PayoutAccountView {
  connected: boolean;
  ready: boolean;
  provider: string | null;
  provider_label: string | null;
  /** The account (or, before connecting, the account connecting would open) is the embedded test mode: no money moves. */
  test_mode: boolean;
  country: string | null;
  /** What still stands between the account and a payout, in words. */
  problems: string[];
}

function providerFor(deps: ConnectDeps, account: PayoutAccountRow | undefined): PayoutProvider {
  const provider = account ? payoutProviderNamed(deps.config, account.provider) : payoutProviderOf(deps.config);
  if (!provider) throw new UnavailableError('Payouts are not configured on this server.');
  return provider;
}

/** The country a creator connects from: one of lib/payout-countries.ts (ISO 3166-1 alpha-2), default the platform's. */
export function connectCountry(raw: unknown, config: Config): string {
  const platform = config.PAYOUT_PLATFORM_COUNTRY.toUpperCase();
  if (raw === undefined || raw === null || raw === '') return platform;
  const country = typeof raw === 'string' ? raw.trim().toUpperCase() : '';
  if (isPayoutCountry(country, platform)) return country;
  throw new ValidationError([
    {
      loc: ['body', 'country'],
      msg:
        `Choose the country of your bank account from the list: payouts ` +
        `cannot be sent to '${typeof raw === 'string' ? raw : JSON.stringify(raw)}'.`,
      type: 'value_error',
    },
  ]);
}

/** Not connected yet: what connecting would open, so the creator reads the provider's label (test mode) before deciding. */
function notConnected(deps: ConnectDeps): PayoutAccountView {
  return {
    connected: false,
    ready: false,
    provider: null,
    provider_label: payoutProviderOf(deps.config)?.label ?? null,
    test_mode: payoutProviderOf(deps.config)?.name === 'test',
    country: null,
    problems: ['no payout account is connected yet'],
  };
}

/** Opens the creator's account if needed and answers a fresh onboarding link to send them to. */
export async function connectPayoutAccount(
  deps: ConnectDeps,
  creatorId: string,
  country: string,
  urls: ConnectUrls,
): Promise<{ url: string; account: PayoutAccountView }> {
  const creator = await creatorEmail(deps.db, creatorId);
  if (!creator.exists) throw new NotFoundError('No such creator.');
  let account = await findPayoutAccount(deps.db, creatorId);
  const provider = providerFor(deps, account);
  if (!account) {
    const opened = await provider
      .createAccount({ creatorId, email: creator.email, country, platformCountry: deps.config.PAYOUT_PLATFORM_COUNTRY.toUpperCase() })
      .catch((err: unknown) => {
        throw new UnavailableError(err instanceof Error ? err.message : 'The payout provider could not be reached.');
      });
    account = await savePayoutAccount(deps.db, { creatorId, provider: provider.name, externalId: opened.externalId, country });
  }
  const url = await provider.onboardingLink({ externalId: account.external_id, ...urls }).catch((err: unknown) => {
    throw new UnavailableError(err instanceof Error ? err.message : 'The payout provider could not be reached.');
  });
  return { url, account: view(account, provider) };
}

/** On return from onboarding (or any time): the account's state read from the provider, stored, and shown. */
export async function refreshPayoutAccount(deps: ConnectDeps, creatorId: string): Promise<PayoutAccountView> {
  const account = await findPayoutAccount(deps.db, creatorId);
  if (!account) return notConnected(deps);
  const provider = providerFor(deps, account);
  const state = await provider.accountState(account.external_id).catch((err: unknown) => {
    throw new UnavailableError(err instanceof Error ? err.message : 'The payout provider could not be reached.');
  });
  await updateAccountState(deps.db, creatorId, state);
  return view((await findPayoutAccount(deps.db, creatorId))!, provider);
}

/** The account as last stored (no provider call): what the portal shows on each page view. */
export async function storedPayoutAccount(deps: ConnectDeps, creatorId: string): Promise<PayoutAccountView> {
  const account = await findPayoutAccount(deps.db, creatorId);
  if (!account) return notConnected(deps);
  return view(account, providerFor(deps, account));
}

function view(account: PayoutAccountRow, provider: PayoutProvider): PayoutAccountView {
  const state = stateOfRow(account);
  return {
    connected: true,
    ready: isAccountReady(state),
    provider: account.provider,
    provider_label: provider.label,
    test_mode: account.provider === 'test',
    country: account.country,
    problems: readinessProblems(state),
  };
}

/** account.updated: the state the provider reports for one of our accounts; answers its creator, or undefined. */
export async function applyAccountUpdate(
  deps: Pick<ConnectDeps, 'db'>,
  input: { provider: PayoutProviderName; externalId: string; state: AccountState },
): Promise<string | undefined> {
  return updateAccountStateByExternalId(deps.db, input.provider, input.externalId, input.state);
}

/** payout.paid / payout.failed: a connected account's own payout to the creator's bank, shown to the creator. */
export async function recordCreatorBankPayout(deps: Pick<ConnectDeps, 'db'>, payout: BankPayout): Promise<void> {
  await recordBankPayout(deps.db, payout);
}

/** The demo history's own creator: a test-mode account, ready at once (no money moves). */
export async function connectTestPayoutAccount(deps: Pick<ConnectDeps, 'db'>, creatorId: string): Promise<void> {
  const provider = testModePayoutProvider({ PAYOUT_TEST_AVAILABLE_USD: undefined, PAYOUT_TEST_PENDING_USD: 0 });
  const account = await provider.createAccount({ creatorId, email: null, country: 'US', platformCountry: 'US' });
  await savePayoutAccount(deps.db, { creatorId, provider: provider.name, externalId: account.externalId, country: 'US' });
  await updateAccountState(deps.db, creatorId, await provider.accountState(account.externalId));
}
