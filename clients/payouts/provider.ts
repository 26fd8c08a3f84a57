// The payout providers a creator can be paid through (clients/payments/ is the wallet-funding side). A provider holds
// the creator's payout account and moves money to it; our ledger decides what is owed (db/payouts.ts) and records
// each transfer (db/payout-transfers.ts).
import type { AccountState, SentTransfer } from '../../lib/payout-account.js';
import type { PayoutProviderName } from '../../schema/types.js';

export type { AccountState, SentTransfer };

export interface NewAccount {
  creatorId: string;
  email: string | null;
  country: string;
  platformCountry: string;
}

export interface TransferRequest {
  payoutId: string;
  /** The payout run: Stripe's `transfer_group`, also how a resumed payout finds its transfer. */
  group: string;
  destination: string;
  amountMicros: number;
  /** Sent with the transfer: a retried call gets the first transfer back (Stripe keeps keys about a day). */
  idempotencyKey: string;
  orgId: string;
}

export type TransferOutcome =
  | { status: 'created'; transferId: string }
  /** Refused for good (no such account, insufficient available funds): the payout's lines go back to payable. */
  | { status: 'refused'; reason: string; insufficientFunds: boolean };

export interface PlatformBalance {
  availableMicros: number;
  pendingMicros: number;
}

export interface PayoutProvider {
  name: PayoutProviderName;
  /** Shown to creators and owners: test mode says so plainly. */
  label: string;
  createAccount(account: NewAccount): Promise<{ externalId: string }>;
  /** A fresh single-use onboarding link (Stripe Account Links expire within minutes: one per click). */
  onboardingLink(r: { externalId: string; refreshUrl: string; returnUrl: string }): Promise<string>;
  accountState(externalId: string): Promise<AccountState>;
  /** The transfer already made for this payout, if any (a resumed payout looks before it creates). */
  findTransfer(r: { group: string; payoutId: string }): Promise<string | undefined>;
  createTransfer(r: TransferRequest): Promise<TransferOutcome>;
  /** The platform's own USD balance at the provider. */
  balance(): Promise<PlatformBalance>;
  /** Every transfer made for a payout of ours, for the daily balance check (a provider moving real money has it). */
  sentTransfers?(): Promise<SentTransfer[]>;
  /** What the provider kept of the money that reached the platform balance (Stripe: the balance transactions' fees). */
  processingFeesMicros?(): Promise<number>;
}

/** The provider could not be reached or answered an error that may pass: retry. Never carries a key. */
export class PayoutProviderError extends Error {}
