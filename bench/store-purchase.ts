// `npm run bench:store`: verified iOS purchases through POST /api/sdk/purchase (API -> store-purchase workflow ->
// JWS verification, FX, hand-off -> conversion workflow -> PostgreSQL; API and worker in their own processes, the
// Temporal dev server, PostgreSQL), from concurrent senders, next to the JWS verification alone in-process (the
// App Store library's SignedDataVerifier against the configured root, online checks off). Each purchase is a new
// production subscription signed by a chain made here; the run checks the ledger holds exactly its reservations.
// BENCH_PURCHASES (default 300), BENCH_CONNECTIONS (default 32).
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { AppleTransactionVerifier, loadAppleRoots } from '../clients/apple-app-store.js';
import { seedDemoAccount, type SeedResult } from '../actions/seed.js';
import { activateStoreDirect, recordCredentialCheck, saveCredential } from '../db/store-credentials-writes.js';
import { appendLedgerEntry } from '../db/wallet-ledger-writes.js';
import { SecretBox } from '../lib/secret-box.js';
import { createDb } from '../runtime/db.js';
import { createAppleChain, signTransaction, transactionPayload, type AppleChain } from '../test/helpers/apple-signing.js';
import { benchDatabase, benchTemporal, startServer } from './infra.js';
import { pct } from './load.js';

const PURCHASES = Number(process.env.BENCH_PURCHASES ?? 300);
const SENDERS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const BUNDLE = 'com.example.bench';
// $9.99 at 30% = 2.997, created in whole cents (lib/commission.ts): 3,000,000 micro-USD commission + 10% platform
// fee 300,000.
const RESERVE_PER_PURCHASE = 3_300_000;

export interface StoreRun {
  name: string;
  count: number;
  seconds: number;
  p50: number;
  p99: number;
  ok: boolean;
  detail: string;
}

async function drive<T>(items: T[], senders: number, send: (item: T) => Promise<void>): Promise<{ latencies: number[]; seconds: number }> {
  const queue = [...items];
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: senders }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
        const t0 = performance.now();
        await send(item);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return { latencies: latencies.sort((a, b) => a - b), seconds: (performance.now() - started) / 1000 };
}

/** An app switched to iOS store-direct (credential stored and passed, platform activated) with a deep wallet. */
async function storeDirectApp(databaseUrl: string, masterKey: string): Promise<SeedResult> {
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
    const key = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    await saveCredential(db, new SecretBox(masterKey), seed.app_id, 'ios', key, {
      key_id: 'BENCH12345',
      issuer_id: '57246542-96fe-1a63-e053-0824d011072a',
      bundle_id: BUNDLE,
      environment: 'PRODUCTION',
    });
    await recordCredentialCheck(db, seed.app_id, 'ios', 'ok', null);
    if (!(await activateStoreDirect(db, seed.app_id, 'ios'))) throw new Error('could not activate store-direct');
    return seed;
  } finally {
    await db.destroy();
  }
}

async function ledgerCheck(databaseUrl: string, orgId: string, purchases: number): Promise<{ ok: boolean; detail: string }> {
  const db = createDb(databaseUrl, 1);
  try {
    const row = await db('wallet_ledger')
      .where({ org_id: orgId, entry_type: 'reserve' })
      .first(db.raw('coalesce(sum(reserved_delta_micros), 0)::bigint as reserved'));
    const reserved = Number((row as { reserved: number }).reserved);
    return {
      ok: reserved === purchases * RESERVE_PER_PURCHASE,
      detail: `reserved ${reserved} / expected ${purchases * RESERVE_PER_PURCHASE}`,
    };
  } finally {
    await db.destroy();
  }
}

function signedPurchases(chain: AppleChain, n: number): string[] {
  const prefix = `${Date.now()}${randomBytes(2).readUInt16BE()}`;
  return Array.from({ length: n }, (_, i) =>
    signTransaction(
      chain,
      transactionPayload({
        bundleId: BUNDLE,
        environment: 'Production',
        transactionId: `${prefix}${String(i).padStart(6, '0')}`,
        price: 9990,
        currency: 'USD',
      }),
    ),
  );
}

export async function runStorePurchaseBench(): Promise<StoreRun[]> {
  const chain = await createAppleChain('Bench');
  const database = await benchDatabase('svc_bench_store');
  const temporal = await benchTemporal();
  const temporalAddress = temporal.address;
  const stopTemporal = () => temporal.stop();
  const masterKey = randomBytes(32).toString('base64');
  const env = {
    DATABASE_URL: database.url,
    TEMPORAL_ADDRESS: temporalAddress,
    TEMPORAL_TASK_QUEUE: `bench-${randomBytes(3).toString('hex')}`,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    DATABASE_POOL_MAX: '20',
    SVC_MASTER_KEY: masterKey,
    APPLE_ROOT_CERTS: chain.rootPath,
  };
  const worker = await startServer('bin/svc.js', ['worker'], env, null);
  const api = await startServer('bin/svc.js', ['api'], env);
  const runs: StoreRun[] = [];
  try {
    const seed = await storeDirectApp(database.url, masterKey);
    // Warm-up: the workflow bundle, the verifier and the pools (its purchases are counted in the ledger check).
    const warm = signedPurchases(chain, 8);
    const jws = signedPurchases(chain, PURCHASES);
    let failures = 0;
    const send = async (signed: string) => {
      const res = await fetch(`${api.url}/api/sdk/purchase`, {
        method: 'POST',
        headers: { authorization: `Bearer ${seed.sdk_key}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          platform: 'ios',
          signed_transaction: signed,
          referral_code: seed.creator_code,
          app_user_id: `bench-${signed.slice(-12)}`,
        }),
      });
      const body = (await res.json()) as { duplicate?: boolean };
      if (res.status !== 200 || body.duplicate !== false) failures += 1;
    };
    await drive(warm, 4, send);
    const pipeline = await drive(jws, SENDERS, send);
    const check = await ledgerCheck(database.url, seed.org_id, PURCHASES + warm.length);
    runs.push({
      name: 'POST /sdk/purchase: verified iOS purchase (API -> store-purchase workflow -> conversion workflow -> PostgreSQL)',
      count: PURCHASES,
      seconds: pipeline.seconds,
      p50: pct(pipeline.latencies, 0.5),
      p99: pct(pipeline.latencies, 0.99),
      ok: check.ok && failures === 0,
      detail: `${check.detail}; ${failures} failed answers`,
    });

    // The JWS verification alone, in this process, same signed transactions, one at a time (it is CPU-bound: more
    // senders only queue on the one event loop).
    const verifier = new AppleTransactionVerifier(loadAppleRoots(chain.rootPath));
    let refused = 0;
    const alone = await drive(jws, 1, async (signed) => {
      if (!(await verifier.verify(signed, BUNDLE, undefined)).ok) refused += 1;
    });
    runs.push({
      name: 'JWS verification alone, in-process, one at a time (SignedDataVerifier)',
      count: PURCHASES,
      seconds: alone.seconds,
      p50: pct(alone.latencies, 0.5),
      p99: pct(alone.latencies, 0.99),
      ok: refused === 0,
      detail: `${refused} refused`,
    });
  } finally {
    await api.stop();
    await worker.stop();
    await stopTemporal();
    await database.stop();
  }
  return runs;
}

export function printStorePurchaseTable(runs: StoreRun[]): void {
  console.log(`\nStore-direct purchases: ${PURCHASES} new production iOS subscriptions, ${SENDERS} concurrent senders\n`);
  console.log('| path | purchases | per second | p50 ms | p99 ms | exact |');
  console.log('|---|---:|---:|---:|---:|---|');
  for (const r of runs)
    console.log(
      `| ${r.name} | ${r.count} | ${Math.round(r.count / r.seconds)} | ${r.p50} | ${r.p99} | ${r.ok ? 'yes' : 'NO'} (${r.detail}) |`,
    );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const runs = await runStorePurchaseBench();
  printStorePurchaseTable(runs);
  process.exit(runs.some((r) => !r.ok) ? 1 : 0);
}
