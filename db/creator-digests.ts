// The creators' money digest (docs/creator-portal.md "Digest"): each money change a creator hears about leaves a
// digest item in the transaction of the change (a release of commissions, a payout's transfer or its return), and composeDueDigests turns a
// creator's unsent items into one outbox mail, marking them in the same transaction, at most once per period.
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { composeDigest, type DigestItem, type DigestLinks } from '../lib/creator-digest.js';
import { enqueueEmail } from './email-outbox-writes.js';

export type DigestItemKind = 'commission_payable' | 'commission_not_confirmed' | 'payout_sent' | 'payout_failed' | 'payout_reversed';

/**
 * Runs `released` (an update of commissions returning id, creator_id, org_id, commission_micros) and adds one
 * `commission_payable` item per row it changed, in one statement; answers how many it changed.
 */
export async function payableDigestItems(trx: Knex.Transaction, released: Knex.QueryBuilder): Promise<number> {
  const update = released.toSQL();
  const { rows } = await trx.raw<{ rows: { released: number }[] }>(
    `
    with released as (${update.sql}),
         items as (insert into creator_digest_items (creator_id, org_id, kind, commission_id, amount_micros)
                   select creator_id, org_id, 'commission_payable', id, commission_micros from released
                   on conflict (kind, commission_id) where commission_id is not null do nothing)
    select count(*)::int as released from released`,
    update.bindings,
  );
  return rows[0]?.released ?? 0;
}

/** A commission voided after review, for the creator's next digest (told without the rule); a repeat adds nothing. */
export async function notConfirmedDigestItem(
  trx: Knex.Transaction,
  c: { id: string; creator_id: string; org_id: string; commission_micros: number | string },
): Promise<void> {
  await trx('creator_digest_items')
    .insert({
      creator_id: c.creator_id,
      org_id: c.org_id,
      kind: 'commission_not_confirmed',
      commission_id: c.id,
      amount_micros: c.commission_micros,
    })
    .onConflict(trx.raw('(kind, commission_id) where commission_id is not null'))
    .ignore();
}

/**
 * A payout's news for the creator's next digest; a repeat adds nothing. `payout_sent` when its transfer is recorded
 * (or it settled with nothing to send), `payout_failed` when it was returned before any transfer, `payout_reversed`
 * when a transfer already sent (and perhaps already mailed about) was taken back: never a silent contradiction.
 */
export async function addPayoutDigestItem(
  trx: Knex.Transaction,
  i: {
    creatorId: string;
    orgId: string;
    payoutId: string;
    kind: Exclude<DigestItemKind, 'commission_payable' | 'commission_not_confirmed'>;
    amountMicros: number;
  },
): Promise<void> {
  await trx.raw(
    `insert into creator_digest_items (creator_id, org_id, kind, payout_id, amount_micros) values (?, ?, ?, ?, ?)
    on conflict (kind, payout_id) where payout_id is not null do nothing`,
    [i.creatorId, i.orgId, i.kind, i.payoutId, i.amountMicros],
  );
}

export interface DigestOptions {
  /** A creator gets at most one digest per this many milliseconds (a day; tests shorten it). */
  everyMs: number;
  dashboardUrl: string;
  /** The creator's unsubscribe link (signed: lib/creator-unsubscribe.ts). */
  unsubscribeUrl: (creatorId: string) => string;
  limit?: number;
}

/** Composes the due digests; answers how many mails it queued. */
export async function composeDueDigests(db: Knex, opts: DigestOptions): Promise<number> {
  const due = await db('creator_digest_items as i')
    .join('creators as c', 'c.id', 'i.creator_id')
    .whereNull('i.digested_at')
    .where((q) => {
      void q.whereNull('c.last_digest_at').orWhereRaw('c.last_digest_at <= now() - make_interval(secs => ?)', [opts.everyMs / 1000]);
    })
    .distinct('i.creator_id')
    .limit(opts.limit ?? 100)
    .pluck<string[]>('i.creator_id');
  let queued = 0;
  for (const creatorId of due) if (await composeOne(db, creatorId, opts)) queued++;
  return queued;
}

async function composeOne(db: Knex, creatorId: string, opts: DigestOptions): Promise<boolean> {
  return db.transaction(async (trx) => {
    // The creator's row is the digest's lock: a second worker skips it, and the period is checked under the lock.
    const creator = await trx('creators')
      .where('id', creatorId)
      .where((q) => {
        void q.whereNull('last_digest_at').orWhereRaw('last_digest_at <= now() - make_interval(secs => ?)', [opts.everyMs / 1000]);
      })
      .forUpdate()
      .skipLocked()
      .first<{ id: string; name: string; email: string | null; digest_unsubscribed_at: Date | null } | undefined>(
        'id',
        'name',
        'email',
        'digest_unsubscribed_at',
      );
    if (!creator) return false;
    const items = await pendingItems(trx, creatorId);
    if (items.length === 0) return false;
    let emailId: string | null = null;
    // Without an address, or after unsubscribing, the items are settled unsent: a later subscription starts afresh.
    if (creator.email && !creator.digest_unsubscribed_at) {
      const links: DigestLinks = { portal: `${opts.dashboardUrl}/creator`, unsubscribe: opts.unsubscribeUrl(creatorId) };
      const mail = composeDigest(creator.name, items, links);
      const key = createHash('sha256')
        .update(
          items
            .map((i) => i.id)
            .sort()
            .join(','),
        )
        .digest('hex')
        .slice(0, 32);
      emailId = await enqueueEmail(trx, {
        orgId: null,
        to: creator.email,
        subject: mail.subject,
        bodyText: mail.body,
        template: 'creator_digest',
        templateData: { creator_id: creatorId, items: items.length },
        dedupKey: `creator-digest:${creatorId}:${key}`,
      });
    }
    await trx('creator_digest_items')
      .whereIn(
        'id',
        items.map((i) => i.id),
      )
      .update({ email_id: emailId, digested_at: trx.fn.now() });
    await trx('creators').where('id', creatorId).update({ last_digest_at: trx.fn.now() });
    return emailId !== null;
  });
}

async function pendingItems(trx: Knex.Transaction, creatorId: string): Promise<DigestItem[]> {
  const rows = await trx('creator_digest_items as i')
    .join('organizations as o', 'o.id', 'i.org_id')
    .leftJoin('commissions as c', 'c.id', 'i.commission_id')
    .leftJoin('campaigns as k', 'k.id', 'c.campaign_id')
    .leftJoin('purchase_events as e', 'e.id', 'c.purchase_event_id')
    .where('i.creator_id', creatorId)
    .whereNull('i.digested_at')
    .orderBy([{ column: 'i.created_at' }, { column: 'i.id' }])
    .select<(Omit<DigestItem, 'amount_micros'> & { amount_micros: string | number })[]>(
      'i.id',
      'i.kind',
      'i.amount_micros',
      'i.created_at',
      'i.payout_id',
      'o.name as org_name',
      'k.id as campaign_id',
      'k.name as campaign_name',
      'e.product_id',
    );
  return rows.map((r) => ({ ...r, amount_micros: Number(r.amount_micros) }));
}
