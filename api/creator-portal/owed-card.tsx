// "What am I owed, and when?" per organization on the portal home (docs/creator-portal.md "What I am owed"): the
// figures of db/creator-owed.ts in words, with the next scheduled payout computed the way the organization's Temporal
// schedule fires (lib/payout-schedule.ts), or "paid on demand by the developer" when it has no schedule. "Under
// review" (only when there is some) is money held for the organization's check, apart from "Held" (the holding period).
import type { ComponentChildren } from 'preact';
import type { CreatorOwed } from '../../db/creator-owed.js';
import { formatUsd } from '../../lib/money.js';
import { nextScheduledPayout } from '../../lib/payout-schedule.js';
import { LocalTime } from '../view-kit/ui.js';
import type { PayoutAccountView } from '../../actions/payout-accounts.js';
import { PAYOUT_ACCOUNT_PATH } from './payout-routes.js';

const every = (hours: number) =>
  hours % 24 === 0 ? (hours === 24 ? 'every day' : `every ${hours / 24} days`) : hours === 1 ? 'every hour' : `every ${hours} hours`;

function Row({ id, label, children }: { id: string; label: string; children: ComponentChildren }) {
  return (
    <tr>
      <th scope="row">{label}</th>
      <td id={id}>{children}</td>
    </tr>
  );
}

/** One organization's money for this creator. `now` is the page's moment, so the next payout date is the true next fire. */
export function OwedCard({ owed, account, now }: { owed: CreatorOwed; account: PayoutAccountView; now: Date }) {
  const o = owed;
  const next = nextScheduledPayout(o.period_hours, now);
  const key = (what: string) => `${what}-${o.org_id}`;
  return (
    <table class="figures" id={key('owed')}>
      <caption>What {o.org_name} owes you, and when</caption>
      <tbody>
        <Row id={key('held')} label="Held">
          {formatUsd(o.held_micros)}
          {o.next_release_at ? (
            <>
              {' '}
              <span class="muted">
                ({o.held_count} commission{o.held_count === 1 ? '' : 's'}; the next is released <LocalTime at={o.next_release_at} />)
              </span>
            </>
          ) : null}
        </Row>
        {o.under_review_micros > 0 ? (
          <Row id={key('under-review')} label="Under review">
            {formatUsd(o.under_review_micros)}{' '}
            <span class="muted">
              ({o.under_review_count} commission{o.under_review_count === 1 ? '' : 's'} {o.org_name} is checking before{' '}
              {o.under_review_count === 1 ? 'it' : 'they'} can be paid; no action is needed from you)
            </span>
          </Row>
        ) : null}
        {o.waiting_micros > 0 ? (
          <Row id={key('waiting')} label="Waiting for a top-up">
            {formatUsd(o.waiting_micros)} <span class="muted">(held once {o.org_name} tops up its wallet)</span>
          </Row>
        ) : null}
        <Row id={key('payable')} label="Payable">
          {formatUsd(o.payable_micros)}
          {o.payable_micros > 0 && !account.ready ? (
            <>
              {' '}
              <a href={PAYOUT_ACCOUNT_PATH}>connect a payout account to be paid</a>
            </>
          ) : null}
        </Row>
        <Row id={key('next')} label="Next payout">
          {next ? (
            <>
              <LocalTime at={next} /> <span class="muted">(scheduled {every(o.period_hours!)})</span>
            </>
          ) : (
            'paid on demand by the developer'
          )}
        </Row>
        <Row id={key('minimum')} label="Minimum payout">
          {o.minimum_payout_micros > 0 ? (
            <>
              {formatUsd(o.minimum_payout_micros)} <span class="muted">(a smaller net waits for the next payout)</span>
            </>
          ) : (
            'none'
          )}
        </Row>
        {o.sending_micros > 0 ? (
          <Row id={key('sending')} label="Sending">
            {formatUsd(o.sending_micros)} <span class="muted">(a payout on its way to your account)</span>
          </Row>
        ) : null}
        <Row id={key('paid')} label="Paid to date">
          {formatUsd(o.paid_micros)}
        </Row>
        <Row id={key('owed-back')} label="Owed back">
          {formatUsd(o.owed_back_micros)}
          {o.owed_back_micros > 0 ? <span class="muted"> (refunds after release; taken from your next payout)</span> : null}
        </Row>
      </tbody>
    </table>
  );
}
