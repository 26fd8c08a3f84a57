// svc dev's demo account gets a past (only svc dev: `svc seed --json` stays quick and empty): 30 days of clicks,
// installs, trials, purchases, renewals and one refund across three creators, then a payout run of what the holding
// period released, by the same rule as every run (actions/payout-run.ts): the demo's own creator has a test-mode
// payout account and is paid; Maya Lopez has none and is held over, so the run's page shows both. Everything goes through the same db/
// functions and the same conversion workflow as live traffic; the only difference is the explicit time each row happened
// (NewClick/NewInstall `at`, IngestEvent.occurredAtMs), which no HTTP route passes. Deterministic from the demo's tag, so the numbers are
// the same on every fresh start.
import type { Client } from '@temporalio/client';
import type { Knex } from 'knex';
import { recordClick } from '../db/clicks.js';
import { enrolCreator } from '../actions/creators.js';
import { insertInstall, markInstallAttributed } from '../db/installs.js';
import { runPayoutRun, type PayoutRunResult } from '../actions/payout-run.js';
import { connectTestPayoutAccount } from '../actions/payout-accounts.js';
import { codeIdsOf, creatorOfCode, reservedPastRelease } from '../db/demo-history.js';
import { conversionKeyOf, type PurchaseEvent } from '../lib/purchase-event.js';
import { ingestIntoConversion } from '../workflow-clients/conversion-ingest.js';
import { startPayoutRun } from '../workflow-clients/payout-runs.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;

export interface DemoTarget {
  orgId: string;
  appId: string;
  campaignId: string;
  creatorCode: string;
  tag: string;
}
export interface DemoHistory {
  creators: number;
  clicks: number;
  installs: number;
  purchaseEvents: number;
  refunds: number;
  payout: PayoutRunResult | null;
  tookMs: number;
}

/** A small deterministic generator (mulberry32), so every fresh demo has the same shape. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

interface Sub {
  user: string;
  code: string;
  startMs: number;
  trial: boolean;
  renewEveryDays: number;
  price: number;
  refundAfterDays?: number;
}

function event(s: Sub, type: 'INITIAL_PURCHASE' | 'RENEWAL' | 'REFUND', atMs: number, n: number, trial = false): PurchaseEvent {
  const original = `demo_${s.user}`;
  const transactionId = type === 'RENEWAL' ? `${original}_r${n}` : type === 'REFUND' ? `${original}_r${n}` : original;
  const price = trial ? 0 : type === 'REFUND' ? -s.price : s.price;
  return {
    source: 'subprovider',
    providerEventId: `demo-${s.user}-${type}-${n}`,
    type,
    appUserId: s.user,
    originalAppUserId: s.user,
    aliases: [],
    transferredFrom: [],
    transferredTo: [],
    productId: s.renewEveryDays === 7 ? 'pro_weekly' : 'pro_monthly',
    newProductId: null,
    periodType: trial ? 'TRIAL' : 'NORMAL',
    purchasedAtMs: atMs,
    expirationAtMs: atMs + (trial ? 3 : s.renewEveryDays) * DAY,
    eventTimestampMs: atMs,
    environment: 'PRODUCTION',
    store: 'APP_STORE',
    transactionId,
    originalTransactionId: original,
    priceUsd: price,
    priceInPurchasedCurrency: price,
    currency: 'USD',
    takehomePercentage: 0.85,
    cancelReason: type === 'REFUND' ? 'CUSTOMER_SUPPORT' : null,
    isTrialConversion: !trial && s.trial && n === 1,
    referralCode: s.code,
    subscriberAttributes: { svc_code: { value: s.code } },
    raw: { demo_history: true },
  };
}

/** The subscription's events in order: the trial or first purchase, renewals until now, the refund if any. */
function eventsOf(s: Sub, now: number): { e: PurchaseEvent; at: number }[] {
  const out: { e: PurchaseEvent; at: number }[] = [];
  let at = s.startMs;
  let n = 0;
  if (s.trial) {
    out.push({ e: event(s, 'INITIAL_PURCHASE', at, 0, true), at });
    at += 3 * DAY;
    n = 1;
    out.push({ e: event(s, 'RENEWAL', at, n), at });
  } else {
    out.push({ e: event(s, 'INITIAL_PURCHASE', at, 0), at });
  }
  for (at += s.renewEveryDays * DAY; at < now - HOUR; at += s.renewEveryDays * DAY) out.push({ e: event(s, 'RENEWAL', at, ++n), at });
  if (s.refundAfterDays !== undefined) {
    const refundAt = s.startMs + s.refundAfterDays * DAY;
    const refunded = out.filter((x) => x.at < refundAt && (x.e.priceUsd ?? 0) > 0).at(-1)!;
    const k = Number(/_r(\d+)$/.exec(refunded.e.transactionId!)?.[1] ?? 0);
    const e = { ...event(s, 'REFUND', refundAt, k), transactionId: refunded.e.transactionId };
    out.push({ e, at: refundAt });
    out.sort((a, b) => a.at - b.at);
  }
  return out.filter((x) => x.at < now - HOUR);
}

export async function seedDemoHistory(
  db: Knex,
  temporal: Client,
  taskQueue: string,
  t: DemoTarget,
  now = Date.now(),
): Promise<DemoHistory> {
  const started = Date.now();
  const rnd = random(parseInt(t.tag.slice(0, 8), 16) || 1);
  const creators = [{ code: t.creatorCode }];
  for (const [name, handle, followers] of [
    ['Maya Lopez', 'mayafits', 48_000],
    ['Jon Park', 'jonbuilds', 7_500],
  ] as const) {
    const enrolled = await enrolCreator(
      { db },
      {
        creator: { name, email: `${handle}+${t.tag}@example.com`, socialHandle: `@${handle}`, followerCount: followers },
        appId: t.appId,
        campaignId: t.campaignId,
        source: 'seed',
      },
    );
    creators.push({ code: enrolled.code });
  }
  const codeId = await codeIdsOf(
    db,
    t.appId,
    creators.map((c) => c.code),
  );

  // Clicks every day, more for bigger creators; about a third install, attributed to the click's code.
  let clicks = 0;
  let installs = 0;
  for (let day = 30; day >= 0; day--) {
    for (const [i, c] of creators.entries()) {
      const count = Math.round((3 - i) * (1 + rnd() * 2));
      for (let k = 0; k < count; k++) {
        const at = new Date(now - day * DAY - Math.floor(rnd() * 20) * HOUR - HOUR);
        if (at.getTime() > now) continue;
        const platform = rnd() < 0.6 ? 'ios' : 'android';
        const click = await recordClick(db, {
          appId: t.appId,
          campaignId: t.campaignId,
          creatorCodeId: codeId.get(c.code)!,
          code: c.code,
          source: 'link',
          ip: null,
          userAgent: 'demo history',
          platform,
          at,
        });
        clicks++;
        if (rnd() < 0.35) {
          const install = await insertInstall(db, {
            appId: t.appId,
            deviceId: `demo-${t.tag}-${clicks}`,
            platform,
            ip: null,
            userAgent: 'demo history',
            at: new Date(at.getTime() + 10 * 60_000),
          });
          await markInstallAttributed(db, install.id, {
            method: 'ip_device_match',
            clickId: click.id,
            creatorCodeId: codeId.get(c.code)!,
            campaignId: t.campaignId,
            referralCode: c.code,
          });
          installs++;
        }
      }
    }
  }

  // Subscriptions: a few per creator, some from a trial, weekly or monthly; one refunded a week in. The earliest
  // start more than the campaign's holding period (30 days) ago, so their first commissions are payable by now.
  const subs: Sub[] = [];
  const starts = [31, 30.5, 26, 22, 19, 15, 12, 9, 6, 4, 2, 1];
  starts.forEach((d, i) => {
    const code = creators[i % 3]!.code;
    subs.push({
      user: `demo_${t.tag}_u${i + 1}`,
      code,
      startMs: now - d * DAY,
      trial: i % 3 === 2,
      renewEveryDays: i % 4 === 1 ? 7 : 30,
      price: i % 4 === 1 ? 4.99 : 9.99,
      ...(i === 3 ? { refundAfterDays: 5 } : {}),
    });
  });
  let purchaseEvents = 0;
  let refunds = 0;
  await Promise.all(
    subs.map(async (s) => {
      for (const { e, at } of eventsOf(s, now)) {
        await ingestIntoConversion(temporal, { taskQueue, appId: t.appId, conversionKey: conversionKeyOf(e)! }, e, undefined, at);
        purchaseEvents++;
        if (e.type === 'REFUND') refunds++;
      }
    }),
  );

  // The conversion workflows release the commissions whose holding period ended (payable_at in the past) at once.
  for (let i = 0; i < 100 && (await reservedPastRelease(db, t.orgId)) > 0; i++) await new Promise((r) => setTimeout(r, 100));
  // The demo's own creator connects a payout account in test mode (ready at once; no money moves).
  await connectTestPayoutAccount({ db }, await creatorOfCode(db, t.appId, t.creatorCode));
  const payout = await runPayoutRun(
    { db, startTransfers: (r) => startPayoutRun({ client: temporal, taskQueue }, r.runId, { orgId: r.orgId, createdBy: r.createdBy }) },
    { orgId: t.orgId, runId: `demo-history-${t.tag}`, createdBy: 'svc dev demo history' },
  );
  return { creators: creators.length, clicks, installs, purchaseEvents, refunds, payout, tookMs: Date.now() - started };
}
