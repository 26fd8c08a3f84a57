// The Android SDK (packages/sdk-android, Kotlin) built here and driven against the real service: its contract tests
// (src/contract: the scenarios of the TypeScript SDK's sdk-client-*.test.ts) run on the JVM against the harness's
// API over real HTTP, with Google Play and the ECB as the project's stubs, set through a control endpoint of this
// file; and the Maven repository the API serves at /sdk/maven/, fetched in Gradle's order.
import test from 'ava';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runJUnit, testClasses } from '../../runtime/android-sdk/build.js';
import { artifactPaths, CHECKSUMS, KOTLIN_STDLIB_VERSION, sdkVersion } from '../../runtime/android-sdk/layout.js';
import { androidBuild, androidTest } from '../helpers/android-sdk.js';
import { useHarness } from '../helpers/harness.js';
import { seedApp, type SeededApp } from '../helpers/seed.js';
import {
  newOrderId,
  setPlaySubscription,
  storeAccount,
  switchToStoreDirect,
  useStoreWorld,
  type StoreAccount,
} from '../helpers/store-direct.js';

const aTest = androidTest(test);
const h = useHarness(test, { env: { TRUST_PROXY: 'true' } });
const world = useStoreWorld(test, h);
let app: SeededApp & { slug: string };
let shop: StoreAccount;
let control: Server;
let controlUrl = '';

/** What the Kotlin tests ask of the stubs (PurchasesContractTest): a Play subscription, a one-time purchase, the ECB down. */
function handle(action: string, body: Record<string, any>): void {
  if (action === '/google/subscription') setPlaySubscription(world(), body.token, newOrderId());
  else if (action === '/google/product') {
    world().google.products.set(`${body.productId}/${body.token}`, {
      purchaseState: 0,
      orderId: newOrderId(),
      purchaseTimeMillis: String(Date.now() - Number(body.daysAgo ?? 0) * 86_400_000),
      productId: body.productId,
    });
  } else if (action === '/ecb') world().ecb.failWith = body.failWith ?? null;
  else throw new Error(`unknown control action ${action}`);
}

test.before(async () => {
  await world.ready();
  const seeded = await seedApp(h().db);
  const [row] = await h()
    .db('apps')
    .where('id', seeded.app_id)
    .update({ android_store_url: 'https://play.google.com/store/apps/details?id=com.example.droid' })
    .returning('slug');
  app = { ...seeded, slug: row.slug };
  shop = await storeAccount(h());
  await switchToStoreDirect(h(), world(), shop, 'android');
  control = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      try {
        handle(req.url ?? '', text ? JSON.parse(text) : {});
        res.writeHead(204).end();
      } catch (err) {
        res.writeHead(400).end(String(err));
      }
    });
  });
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
  controlUrl = `http://127.0.0.1:${(control.address() as AddressInfo).port}`;
});

test.after.always(async () => {
  await new Promise((resolve) => (control ? control.close(resolve) : resolve(undefined)));
});

const props = () => ({
  'svc.baseUrl': h().baseUrl,
  'svc.sdkKey': app.sdk_key,
  'svc.slug': app.slug,
  'svc.creatorCode': app.creator_code,
  'svc.campaignId': app.campaign_id,
  'svc.storeSdkKey': shop.sdk_key,
  'svc.storeCreatorCode': shop.creator_code,
  'svc.control': controlUrl,
});

for (const name of ['AttributionContractTest', 'CodesContractTest', 'PurchasesContractTest']) {
  aTest.serial(`the Android SDK against the real service: ${name}`, async (t) => {
    const { tc, build } = await androidBuild();
    const className = testClasses('contract').find((c) => c.endsWith(`.${name}`));
    t.truthy(className, `src/contract has ${name}`);
    const started = Date.now();
    const run = await runJUnit(tc, build, 'contract', [className!], props());
    t.log(`${run.tests} tests in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    t.true(run.ok, run.output);
    t.true(run.tests >= 2, run.output);
    if (name === 'AttributionContractTest') {
      // The attributed install carried the Play Install Referrer's times (AttributionContractTest.PLAY_TIMES).
      const rows = await h()
        .db('installs')
        .where({ app_id: app.app_id, platform: 'android', attributed: true })
        .whereNotNull('install_begin_at')
        .select('referrer_click_at', 'install_begin_at', 'install_begin_server_at');
      t.deepEqual(rows, [
        {
          referrer_click_at: new Date(1_790_000_000_000),
          install_begin_at: new Date(1_790_000_042_000),
          install_begin_server_at: new Date(1_790_000_040_000),
        },
      ]);
    }
  });
}

const hash = (algorithm: string, bytes: Buffer) => createHash(algorithm).update(bytes).digest('hex');

aTest('the Maven repository at /sdk/maven/ answers Gradle: metadata, POM, jar, sources jar and every checksum', async (t) => {
  await androidBuild();
  const version = sdkVersion();
  const repo = `${h().baseUrl}/sdk/maven/`;
  const paths = artifactPaths(version);
  const get = async (rel: string) => {
    const res = await fetch(repo + rel);
    return { status: res.status, type: res.headers.get('content-type') ?? '', bytes: Buffer.from(await res.arrayBuffer()) };
  };
  // A dynamic version (1.+) starts at the artifact's metadata.
  const metadata = await get(paths.metadata);
  t.is(metadata.status, 200);
  const xml = metadata.bytes.toString();
  t.regex(xml, /<groupId>com\.svc<\/groupId>\s*<artifactId>attribution<\/artifactId>/);
  t.regex(xml, new RegExp(`<release>${version}</release>`));
  t.regex(xml, new RegExp(`<versions>\\s*<version>${version}</version>`));
  // Then the POM (Gradle reads its dependencies), then the jar; each with its checksums.
  const pom = await get(paths.pom);
  t.is(pom.status, 200);
  t.regex(pom.type, /xml/);
  const text = pom.bytes.toString();
  for (const field of [
    '<groupId>com.svc</groupId>',
    '<artifactId>attribution</artifactId>',
    `<version>${version}</version>`,
    '<packaging>jar</packaging>',
  ])
    t.true(text.includes(field), field);
  t.regex(
    text,
    new RegExp(`<artifactId>kotlin-stdlib</artifactId>\\s*<version>${KOTLIN_STDLIB_VERSION}</version>\\s*<scope>compile</scope>`),
  );
  const jar = await get(paths.jar);
  t.is(jar.status, 200);
  t.is(jar.type, 'application/java-archive');
  t.is(jar.bytes.subarray(0, 2).toString(), 'PK', 'a zip');
  const sources = await get(paths.sources);
  t.is(sources.status, 200);
  for (const [rel, file] of [
    [paths.metadata, metadata],
    [paths.pom, pom],
    [paths.jar, jar],
    [paths.sources, sources],
  ] as const) {
    for (const [ext, algorithm] of Object.entries(CHECKSUMS)) {
      const sum = await get(`${rel}.${ext}`);
      t.is(sum.status, 200, `${rel}.${ext}`);
      t.is(sum.bytes.toString().trim(), hash(algorithm, file.bytes), `${rel}.${ext}`);
    }
  }
  const head = await fetch(repo + paths.jar, { method: 'HEAD' });
  t.is(head.status, 200);
  t.is(Number(head.headers.get('content-length')), jar.bytes.length);
  // What is not published is a 404 with a detail, never a file outside the repository.
  for (const rel of [`com/svc/attribution/9.9.9/attribution-9.9.9.pom`, '..%2F..%2Fpackage.json', '.source-hash', '']) {
    const res = await fetch(repo + rel);
    t.is(res.status, 404, rel);
    t.regex(((await res.json()) as { detail: string }).detail, /holds com\.svc:attribution/, rel);
  }
});
