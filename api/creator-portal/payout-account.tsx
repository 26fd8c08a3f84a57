// Where a creator's payouts go (docs/wallet-and-payouts.md "Connecting an account"): the panel the campaign pages and
// the payout-account page share (the state in words, the provider's label before connecting, the connect form with
// the country select of lib/payout-countries.ts), the page GET {PORTAL}/payout-account, which onboarding returns to
// (`?from=onboarding`: what happened and what is still needed), and the same page answering a refused form (422, the
// message beside the select, the choice kept).
import type { CreatorBankPayoutRow } from '../../schema/types.js';
import { bankPayoutsOfCreator } from '../../db/creator-bank-payouts.js';
import { countryName, payoutCountries } from '../../lib/payout-countries.js';
import { LocalTime } from '../view-kit/ui.js';
import { storedPayoutAccount, type PayoutAccountView } from '../../actions/payout-accounts.js';
import { PAYOUT_ACCOUNT_PATH } from './payout-routes.js';
import type { AppContext } from '../context.js';
import { signedInCreator, type CreatorSignedIn } from './auth.js';
import { portalPage } from './layout.js';

export interface ConnectFormState {
  country: string;
  message: string;
}

/** The account's state in one sentence. */
export function accountStateText(account: PayoutAccountView): string {
  if (account.ready) return 'Ready: payouts are sent to your connected account.';
  if (account.connected) return `Not ready yet: ${account.problems.join('; ')}. Your earnings stay payable until it is.`;
  return 'No payout account connected: your earnings stay payable until you connect one.';
}

function ConnectForm({
  ctx,
  s,
  account,
  error,
}: {
  ctx: AppContext;
  s: CreatorSignedIn;
  account: PayoutAccountView;
  error?: ConnectFormState;
}) {
  const platform = ctx.deps.config.PAYOUT_PLATFORM_COUNTRY.toUpperCase();
  const countries = payoutCountries(platform);
  const wanted = (error?.country ?? account.country ?? platform).trim().toUpperCase();
  const chosen = countries.some((c) => c.code === wanted) ? wanted : platform;
  return (
    <form method="post" action={`${PAYOUT_ACCOUNT_PATH}/connect`}>
      <input type="hidden" name="csrf" value={s.csrf} />
      <label for="payout-country">Country of your bank account</label>
      <select
        id="payout-country"
        name="country"
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={error ? 'payout-country-error' : 'payout-country-hint'}
      >
        {countries.map((c) => (
          <option value={c.code} selected={c.code === chosen}>
            {c.name}
          </option>
        ))}
      </select>
      {error ? (
        <p class="field-error" id="payout-country-error">
          {error.message}
        </p>
      ) : (
        <p class="muted" id="payout-country-hint">
          Payouts can be sent to bank accounts in these {countries.length} countries.
        </p>
      )}
      <button type="submit">{account.connected ? 'Continue setting up payouts' : 'Connect a payout account'}</button>
    </form>
  );
}

const BankPayouts = ({ bank }: { bank: CreatorBankPayoutRow[] }) =>
  bank.length === 0 ? null : (
    <>
      <h4>From your payout account to your bank</h4>
      <ul id="bank-payouts">
        {bank.map((b) => (
          <li data-bank-payout={b.id}>
            {(Number(b.amount_micros) / 1e6).toFixed(2)} {b.currency.toUpperCase()}:{' '}
            {b.status === 'paid' ? (
              <>
                paid
                {b.arrival_at ? (
                  <>
                    {' '}
                    (arrived <LocalTime at={b.arrival_at} />)
                  </>
                ) : null}
              </>
            ) : b.status === 'failed' ? (
              `failed${b.failure_message ? `: ${b.failure_message}` : ''}. The ` +
              `money stays in your payout account until your bank details are fixed there.`
            ) : (
              b.status
            )}
          </li>
        ))}
      </ul>
    </>
  );

/** One account per creator, whatever organizations pay them (api/creator-portal/). */
export function PayoutAccountPanel(props: {
  ctx: AppContext;
  s: CreatorSignedIn;
  account: PayoutAccountView;
  bank: CreatorBankPayoutRow[];
  error?: ConnectFormState;
  heading?: boolean;
}) {
  const { account } = props;
  return (
    <section
      id="payout-account"
      {...(props.heading === false ? { 'aria-label': 'Payout account' } : { 'aria-labelledby': 'payout-account-title' })}
    >
      {props.heading === false ? null : <h3 id="payout-account-title">Payout account</h3>}
      {account.provider_label ? (
        <p id="payout-provider" class={account.test_mode ? 'notice' : 'muted'}>
          {account.test_mode ? <strong>{account.provider_label}</strong> : account.provider_label}
        </p>
      ) : null}
      <p id="payout-account-state">{accountStateText(account)}</p>
      {account.country ? <p class="muted">Country of the account: {countryName(account.country)}</p> : null}
      {account.ready ? null : <ConnectForm ctx={props.ctx} s={props.s} account={account} error={props.error} />}
      <BankPayouts bank={props.bank} />
    </section>
  );
}

/** What the return from onboarding says happened, and what is still needed. */
function ReturnNote({ account }: { account: PayoutAccountView }) {
  if (account.ready)
    return (
      <p class="flash ok" role="status" id="onboarding-result">
        You are back from setting up payouts: your payout account is ready. Payouts from every organization you work for are sent to it.
      </p>
    );
  return (
    <div class="flash bad" role="alert" id="onboarding-result">
      <p>You are back from setting up payouts, but your payout account is not ready yet. Still needed:</p>
      <ul>
        {account.problems.map((p) => (
          <li>{p}</li>
        ))}
      </ul>
      <p>Continue below; nothing you entered is lost.</p>
    </div>
  );
}

/** GET {PORTAL}/payout-account, and the 422 answer of a refused connect form. */
export async function payoutAccountPage(ctx: AppContext, error?: ConnectFormState): Promise<void> {
  const s = await signedInCreator(ctx);
  if (!s) return;
  const [account, bank] = await Promise.all([storedPayoutAccount(ctx.deps, s.creator.id), bankPayoutsOfCreator(ctx.deps.db, s.creator.id)]);
  portalPage(
    ctx,
    s,
    error ? 422 : 200,
    'Payout account',
    <>
      {ctx.query.from === 'onboarding' && !error ? <ReturnNote account={account} /> : null}
      {error ? (
        <p class="flash bad" role="alert">
          Nothing was connected: choose the country of your bank account.
        </p>
      ) : null}
      <p>One payout account receives your payouts from every organization you work for.</p>
      <PayoutAccountPanel ctx={ctx} s={s} account={account} bank={bank} error={error} heading={false} />
    </>,
  );
}
