// Every package, version, entry, repository and URL the SDK registry prints resolves against what this project
// ships (packages/sdk, packages/sdk-android) or what the running service serves (the Maven repository at
// /sdk/maven/, the client API paths an SDK-less app calls); an SDK without a package says so and what to do instead.
import test from 'ava';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { WEB_SDK_VERSION } from '@svc/sdk/web';
import { REACT_NATIVE_SDK_VERSION } from '@svc/sdk/react-native';
import { listSdks } from '../../sdk-registry/registry.js';
import { REGISTRY_TOOLS } from '../../sdk-registry/tools.js';
import { artifactPaths, coordinates, PROJECT_ROOT, sdkVersion } from '../../runtime/android-sdk/layout.js';
import { androidBuild, androidTest } from '../helpers/android-sdk.js';
import { useHarness } from '../helpers/harness.js';
import { seedApp, type SeededApp } from '../helpers/seed.js';

const aTest = androidTest(test);
const h = useHarness(test, { worker: false });
let app: SeededApp;
test.before(async () => {
  await h.ready();
  app = await seedApp(h().db);
});

const tool = (name: string) => REGISTRY_TOOLS.find((x) => x.name === name)!;
const TS_PACKAGE = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'packages/sdk/package.json'), 'utf8')) as {
  name: string;
  version: string;
  exports: Record<string, unknown>;
};
/** The version each TypeScript entry reports on init (spec "Versioning"). */
const ENTRY_VERSIONS: Record<string, string> = { '@svc/sdk/web': WEB_SDK_VERSION, '@svc/sdk/react-native': REACT_NATIVE_SDK_VERSION };

test('the TypeScript rows name the package this project ships, an entry it exports and the version that entry reports', (t) => {
  for (const sdk of listSdks().filter((s) => s.language === 'typescript')) {
    t.true(sdk.available, sdk.id);
    const pkg = sdk.package!;
    t.is(pkg.name, TS_PACKAGE.name, sdk.id);
    t.is(pkg.version, TS_PACKAGE.version, sdk.id);
    t.true(pkg.import_from.startsWith(`${pkg.name}/`), sdk.id);
    t.truthy(TS_PACKAGE.exports[`.${pkg.import_from.slice(pkg.name.length)}`], `${pkg.import_from} is an export of ${pkg.name}`);
    t.is(sdk.version, ENTRY_VERSIONS[pkg.import_from] ?? '', `${sdk.id}: the entry's own version`);
    t.true(pkg.install_command.startsWith(`npm install ${pkg.name}@${pkg.version}`), pkg.install_command);
    t.notRegex(pkg.install_command, /pod-install|@svc\/(web|react-native)\b/);
  }
});

aTest('the Android row names the coordinates this project builds, and its repository serves them', async (t) => {
  await androidBuild();
  const sdk = listSdks().find((s) => s.id === 'android')!;
  const pkg = sdk.package!;
  t.is(`${pkg.name}:${pkg.version}`, coordinates());
  t.is(sdk.version, sdkVersion());
  const repository = pkg.repository!.replace('{base_url}', h().baseUrl);
  t.true(
    pkg.install_command.includes(pkg.repository!) && pkg.install_command.includes(`implementation("${coordinates()}")`),
    pkg.install_command,
  );
  const pom = await fetch(repository + artifactPaths().pom);
  t.is(pom.status, 200);
  t.regex(await pom.text(), new RegExp(`<version>${sdkVersion()}</version>`));
  const jar = Buffer.from(await (await fetch(repository + artifactPaths().jar)).arrayBuffer());
  t.true(jar.includes(`${pkg.import_from.replace(/\./g, '/')}.class`), `${pkg.import_from} is in the jar`);

  // The scaffold a local svc dev prints: the repository and dependency Gradle would resolve against this server.
  const files = tool('svc_scaffold_install').run({ sdk: 'android', sdk_key: app.sdk_key }, { baseUrl: h().baseUrl }).files as {
    file_name: string;
    code: string;
  }[];
  const settings = files.find((f) => f.file_name === 'settings.gradle.kts')!.code;
  const url = /url = uri\("([^"]+)"\)/.exec(settings)![1]!;
  t.is(url, repository);
  t.regex(settings, /isAllowInsecureProtocol = true/, 'the harness serves plain http');
  const dependency = /implementation\("com\.svc:attribution:([^"]+)"\)/.exec(
    files.find((f) => f.file_name === 'app/build.gradle.kts')!.code,
  )![1]!;
  const metadata = await (await fetch(`${url}${artifactPaths().metadata}`)).text();
  t.true(metadata.includes(`<version>${dependency}</version>`), 'the version Gradle asks for is in the metadata');
});

test('iOS and Flutter say they have no package and give the client API calls, each of which the service answers', async (t) => {
  for (const sdk of listSdks().filter((s) => !s.available)) {
    t.deepEqual([sdk.id, sdk.package], [sdk.id, null]);
    const why = sdk.unavailable!;
    t.regex(why.instead, /client HTTP API/);
    t.true(existsSync(path.join(PROJECT_ROOT, why.docs)), why.docs);
    const paths = [
      ...new Set(
        why.steps.flatMap((s) => [...s.matchAll(/(GET|POST) (?:\{base_url\})?(\/api\/sdk\/[a-z-]+)/g)].map((m) => `${m[1]} ${m[2]}`)),
      ),
    ];
    t.true(paths.length >= 6, JSON.stringify(paths));
    for (const call of paths) {
      const [method, p] = call.split(' ') as [string, string];
      const res = await fetch(`${h().baseUrl}${p}${method === 'GET' ? '?app_user_id=u1' : ''}`, {
        method,
        headers: { authorization: `Bearer ${app.sdk_key}`, 'content-type': 'application/json' },
        body: method === 'POST' ? '{}' : undefined,
      });
      t.not(res.status, 404, `${call} exists`);
      t.true(res.status < 500, `${call}: ${res.status}`);
    }
    const docs = readFileSync(path.join(PROJECT_ROOT, why.docs), 'utf8');
    for (const call of paths)
      t.true(docs.includes(call.replace(' /api', ' {base_url}/api')) || docs.includes(call), `${why.docs} explains ${call}`);
  }
});

test('svc_list_sdks carries available; svc_recommend_sdk for Swift or Flutter recommends the path that works', (t) => {
  const listed = tool('svc_list_sdks').run({}, { baseUrl: h().baseUrl }).sdks as { id: string; available: boolean }[];
  t.deepEqual(
    listed.map((s) => [s.id, s.available]),
    [
      ['react-native', true],
      ['ios', false],
      ['android', true],
      ['flutter', false],
      ['web', true],
    ],
  );
  for (const stack of ['SwiftUI', 'Flutter']) {
    const answer = tool('svc_recommend_sdk').run({ stack }, { baseUrl: h().baseUrl }) as any;
    const [rec] = answer.recommendations;
    t.like(rec, { available: false, package: null, install_command: null });
    t.regex(rec.instead, /client HTTP API/);
    t.true(rec.steps.length >= 6);
    t.regex(answer.message, /no package exists/);
  }
  const kotlin = tool('svc_recommend_sdk').run({ stack: 'Jetpack Compose' }, { baseUrl: h().baseUrl }) as any;
  t.like(kotlin.recommendations[0], { sdk_id: 'android', available: true, package: 'com.svc:attribution' });
});
