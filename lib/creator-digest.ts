// The words of a creator's money digest (db/creator-digests.ts queues it): one line per change, grouped by kind,
// each with its organization, and the portal's links. Pure, so the text is tested without a database.
import { NEUTRAL_VOID_REASON } from './fraud-signals/types.js';
import { formatUsd } from './money.js';

export interface DigestItem {
  id: string;
  kind: 'commission_payable' | 'commission_not_confirmed' | 'payout_sent' | 'payout_failed' | 'payout_reversed';
  amount_micros: number;
  created_at: Date;
  org_name: string;
  payout_id: string | null;
  campaign_id: string | null;
  campaign_name: string | null;
  product_id: string | null;
}
export interface DigestLinks {
  portal: string;
  unsubscribe: string;
}

const day = (d: Date) => new Date(d).toISOString().slice(0, 10);

function line(i: DigestItem, links: DigestLinks): string {
  const statement = `${links.portal}/payouts/${i.payout_id ?? ''}`;
  switch (i.kind) {
    case 'commission_payable':
      return (
        `- ${formatUsd(i.amount_micros)} for ${i.product_id ?? 'a purchase'} ` +
        `in ${i.campaign_name ?? 'a campaign'} (${i.org_name}) is now payable: ${links.portal}/campaigns/${i.campaign_id ?? ''}`
      );
    case 'commission_not_confirmed':
      // The review's neutral words (lib/fraud-signals NEUTRAL_VOID_REASON): never the rule or its evidence.
      return (
        `- ${formatUsd(i.amount_micros)} for ${i.product_id ?? 'a purchase'} in ${i.campaign_name ?? 'a campaign'} (${i.org_name}): ` +
        `${NEUTRAL_VOID_REASON} ${links.portal}/campaigns/${i.campaign_id ?? ''}`
      );
    case 'payout_sent':
      return i.amount_micros === 0
        ? `- Payout statement from ${i.org_name} on ${day(i.created_at)}: ` +
            `nothing to send (what you owed back was netted); statement: ${statement}`
        : `- Payout of ${formatUsd(i.amount_micros)} from ${i.org_name} sent ` +
            `to your payout account on ${day(i.created_at)}; statement: ${statement}`;
    case 'payout_failed':
      return (
        `- A payout of ${formatUsd(i.amount_micros)} from ${i.org_name} was returned ` +
        `on ${day(i.created_at)}: nothing was paid; the amounts are payable again. Why: ${statement}`
      );
    case 'payout_reversed':
      return (
        `- The payout of ${formatUsd(i.amount_micros)} from ${i.org_name} sent earlier was reversed ` +
        `on ${day(i.created_at)}: the money was taken back, so nothing was paid; the amounts are payable again. Why: ${statement}`
      );
  }
}

export function composeDigest(name: string, items: readonly DigestItem[], links: DigestLinks): { subject: string; body: string } {
  const payable = items.filter((i) => i.kind === 'commission_payable');
  const notConfirmed = items.filter((i) => i.kind === 'commission_not_confirmed');
  const payouts = items.filter((i) => i.kind !== 'commission_payable' && i.kind !== 'commission_not_confirmed');
  const plural = (n: number) => (n === 1 ? '' : 's');
  const parts = [
    payable.length ? `${payable.length} commission${plural(payable.length)} payable` : '',
    notConfirmed.length ? `${notConfirmed.length} commission${plural(notConfirmed.length)} not confirmed` : '',
    payouts.length ? `${payouts.length} payout update${plural(payouts.length)}` : '',
  ].filter(Boolean);
  const sections = [
    payable.length ? `Commissions that became payable:\n${payable.map((i) => line(i, links)).join('\n')}` : '',
    notConfirmed.length ? `Commissions not confirmed:\n${notConfirmed.map((i) => line(i, links)).join('\n')}` : '',
    payouts.length ? `Payouts:\n${payouts.map((i) => line(i, links)).join('\n')}` : '',
  ].filter(Boolean);
  return {
    subject: `Your earnings: ${parts.join(', ')}`,
    body:
      `Hello ${name},\n\n${sections.join('\n\n')}\n\nEverything you earned, campaign by campaign: ${links.portal}\n\n` +
      `You get this digest at most once a day when your money moves. Stop these emails: ${links.unsubscribe}\n`,
  };
}
