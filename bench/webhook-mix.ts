// The webhook benchmark's traffic and its books: per subscription, in order, a purchase, two renewals and maybe a
// refund or a cancellation, 10 % of sends repeated (the provider redelivers); afterwards the ledger must hold
// exactly the reservations of the distinct paid events.
import { randomBytes } from 'node:crypto';
import { seedDemoAccount, type SeedResult } from '../actions/seed.js';
import { appendLedgerEntry } from '../db/wallet-ledger-writes.js';
import { createDb } from '../runtime/db.js';
import { subscription, type ProviderBody } from '../test/helpers/subprovider-events.js';

// $9.99 at 30% = 2.997, created in whole cents (lib/commission.ts): 3,000,000 micro-USD commission, + 10% platform
// fee = 300,000: 3,300,000 reserved per paid event.
const RESERVE_PER_PAID_EVENT = 3_300_000;

export interface Plan {
  events: ProviderBody[];
  expectedReservedMicros: number;
  distinct: number;
}

export function plan(code: string, subscriptions: number): ProviderBody[][] {
  return Array.from({ length: subscriptions }, (_, i) => {
    const sub = subscription(`bench-${i}-${randomBytes(3).toString('hex')}`, code);
    const events = [sub('initial_purchase'), sub('renewal'), sub('renewal')];
    if (i % 10 === 0) events.push(sub('refund', { transaction_id: events[2]!.event.transaction_id, price: -9.99 }));
    else if (i % 4 === 0) events.push(sub('cancellation'));
    const withRedeliveries: ProviderBody[] = [];
    events.forEach((e, k) => {
      withRedeliveries.push(e);
      if ((i * 7 + k) % 10 === 0) withRedeliveries.push(e);
    });
    return withRedeliveries;
  });
}

export function expected(subs: ProviderBody[][]): Plan {
  let reserved = 0;
  let distinct = 0;
  for (const events of subs) {
    const unique = [...new Map(events.map((e) => [e.event.id, e])).values()];
    distinct += unique.length;
    const paid = unique.filter((e) => ['INITIAL_PURCHASE', 'RENEWAL'].includes(e.event.type)).length;
    const refunds = unique.filter((e) => e.event.type === 'REFUND').length;
    reserved += (paid - refunds) * RESERVE_PER_PAID_EVENT;
  }
  return { events: subs.flat(), expectedReservedMicros: reserved, distinct };
}

/** A new organization with a wallet that never runs short. */
export async function freshAccount(databaseUrl: string): Promise<SeedResult> {
  const db = createDb(databaseUrl, 2);
  try {
    const seed = await seedDemoAccount({ db }, { baseUrl: 'http://bench', dashboardUrl: 'http://bench/dashboard' });
    await appendLedgerEntry(db, {
      orgId: seed.org_id,
      entryType: 'topup',
      balanceDeltaMicros: 100_000_000_000_000,
      reservedDeltaMicros: 0,
      idempotencyKey: `topup:bench:${seed.org_id}`,
    });
    return seed;
  } finally {
    await db.destroy();
  }
}

export async function sendWebhook(apiUrl: string, seed: SeedResult, body: ProviderBody): Promise<void> {
  const res = await fetch(`${apiUrl}/api/webhooks/subprovider/${seed.app_id}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${seed.webhook_secret}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`webhook answered ${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
}

export async function ledgerCheck(databaseUrl: string, orgId: string, p: Plan): Promise<{ ok: boolean; detail: string }> {
  const db = createDb(databaseUrl, 1);
  try {
    const row = await db('wallet_ledger')
      .where('org_id', orgId)
      .first(db.raw('coalesce(sum(reserved_delta_micros), 0)::bigint as reserved'));
    const events = await db('purchase_events as p')
      .join('apps as a', 'a.id', 'p.app_id')
      .where('a.org_id', orgId)
      .count<{ count: string }[]>('* as count');
    const reserved = Number((row as { reserved: number }).reserved);
    const recorded = Number(events[0]!.count);
    const ok = reserved === p.expectedReservedMicros && recorded === p.distinct;
    return { ok, detail: `reserved ${reserved} / expected ${p.expectedReservedMicros}; events ${recorded} / ${p.distinct}` };
  } finally {
    await db.destroy();
  }
}
