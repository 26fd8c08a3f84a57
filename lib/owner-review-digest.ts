// The words of an organization owner's digest of new commission reviews (db/owner-review-digests.ts queues it): one
// line per review raised since the owner's last digest, held ones first, each with its creator, campaign, amount and
// the evidence of each signal, and the link to the review queue. Pure, so the text is tested without a database.
import { formatUsd } from './money.js';

export interface OwnerDigestReview {
  id: string;
  action: 'hold' | 'flag';
  creator_name: string;
  campaign_name: string;
  app_name: string;
  amount_micros: number;
  signals: { signal: string; evidence: string }[];
  created_at: Date;
}

export interface OwnerDigestLinks {
  /** The dashboard's review queue. */
  queue: string;
}

const signalWords = (s: string) => s.replace(/_/g, ' ');

function line(r: OwnerDigestReview): string {
  const what = r.action === 'hold' ? 'HELD until you decide' : 'flagged (paid as usual unless you void it)';
  const evidence = r.signals.map((s) => `    ${signalWords(s.signal)}: ${s.evidence}`).join('\n');
  return `- ${r.creator_name}, ${r.campaign_name} (${r.app_name}): ${formatUsd(r.amount_micros)} commission ${what}\n${evidence}`;
}

/** `more`: reviews raised beyond those listed (the queue has them all). */
export function composeOwnerDigest(
  orgName: string,
  reviews: readonly OwnerDigestReview[],
  links: OwnerDigestLinks,
  more = 0,
): { subject: string; body: string } {
  const held = reviews.filter((r) => r.action === 'hold');
  const flagged = reviews.filter((r) => r.action === 'flag');
  const total = reviews.length + more;
  const parts = [held.length ? `${held.length} held` : '', flagged.length ? `${flagged.length} flagged` : ''].filter(Boolean);
  const sections = [
    held.length ? `Held: not payable until you approve or void them:\n${held.map(line).join('\n')}` : '',
    flagged.length ? `Flagged: shown for a look, paid as usual:\n${flagged.map(line).join('\n')}` : '',
    more > 0 ? `And ${more} more in the review queue.` : '',
  ].filter(Boolean);
  return {
    subject: `${orgName}: ${total} commission${total === 1 ? '' : 's'} to review (${parts.join(', ')})`,
    body:
      `Hello,\n\nSince your last digest, fraud signals raised ${total} review${total === 1 ? '' : 's'} of commissions in ${orgName}.\n\n` +
      `${sections.join('\n\n')}\n\nApprove or void them in the review queue: ${links.queue}\n\n` +
      `You get this digest as an owner of ${orgName}, at most once a day and only when there is something new. ` +
      `The creators are never told which rule raised a review.\n`,
  };
}
