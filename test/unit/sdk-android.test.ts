// The Android SDK (packages/sdk-android) on the JVM: its JUnit unit tests of each client-side rule, the imports an
// Android app can load (no java.net.http; nothing below API 26 such as java.time, java.util.Base64, java.nio.file),
// the published jar's size budget and its POM. The build is cached per source hash (runtime/android-sdk/build.ts).
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { runJUnit, stageSources, testClasses } from '../../runtime/android-sdk/build.js';
import {
  artifactPaths,
  JAR_BUDGET_BYTES,
  KOTLIN_STDLIB_VERSION,
  MAVEN_DIR,
  MIN_SDK,
  sdkVersion,
} from '../../runtime/android-sdk/layout.js';
import { androidBuild, androidTest } from '../helpers/android-sdk.js';

const aTest = androidTest(test);

/** What the library may import: Kotlin, java.lang/io/util(.concurrent)/net/security/math as Android has them since API 21. */
const ALLOWED_IMPORTS = [
  /^kotlin\./,
  /^java\.io\.[A-Z]\w*$/,
  /^java\.net\.(HttpURLConnection|URL|URLDecoder|URLEncoder)$/,
  /^java\.security\.(MessageDigest|SecureRandom)$/,
  /^java\.math\.BigDecimal$/,
  /^java\.util\.concurrent\.(\w+\.)?[A-Z]\w*$/,
  /^java\.util\.(Locale|TimeZone)$/,
  /^com\.svc\.attribution\./,
];

/** Every `import` line and fully qualified java./javax./android. name in the library's sources. */
function foreignNames(source: string): string[] {
  const imports = [...source.matchAll(/^import\s+([\w.]+)/gm)].map((m) => m[1]!);
  const qualified = [
    ...source.replace(/^\/\/.*$/gm, '').matchAll(/\b((?:java|javax|android|androidx|org|sun)(?:\.[a-z]\w*)+\.[A-Z]\w*)/g),
  ].map((m) => m[1]!);
  return [...new Set([...imports, ...qualified])];
}

const isAllowed = (name: string) => ALLOWED_IMPORTS.some((re) => re.test(name)) || /^java\.(lang|util\.concurrent)\b/.test(name);

test(
  'the library imports only what Android has since its minSdk (a ' +
    'planted java.time, Base64, java.net.http or java.nio.file import fails)',
  (t) => {
    const dir = stageSources('main');
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.kt'));
    t.true(files.length >= 5);
    const offending: string[] = [];
    for (const f of files)
      for (const name of foreignNames(readFileSync(path.join(dir, f), 'utf8'))) if (!isAllowed(name)) offending.push(`${f}: ${name}`);
    t.deepEqual(offending, [], `not on Android API ${MIN_SDK}`);
    for (const planted of [
      'import java.time.Instant',
      'import java.util.Base64',
      'import java.net.http.HttpClient',
      'import java.nio.file.Files',
      'val x = java.time.Instant.now()',
    ])
      t.true(
        foreignNames(planted).some((n) => !isAllowed(n)),
        planted,
      );
  },
);

aTest('the JUnit unit tests of the client-side rules pass on the built library', async (t) => {
  const { tc, build } = await androidBuild();
  t.log(`build ${(build.ms / 1000).toFixed(1)} s (${build.main.cached ? 'cached' : 'compiled'})`);
  const classes = testClasses('test');
  t.true(classes.includes('com.svc.attribution.RulesTest'));
  const run = await runJUnit(tc, build, 'test', classes);
  t.true(run.ok, run.output);
  t.true(run.tests >= 20, run.output);
});

aTest('an unchanged SDK does not recompile: a second build in another process reuses every compiled stage', async (t) => {
  await androidBuild();
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'runtime/android-sdk/build-cli.ts'], { encoding: 'utf8' });
  t.regex(out, /android sdk: unchanged \(cached\)/, out);
});

aTest('the published jar stays under the size budget and its POM declares kotlin-stdlib at the promised version', async (t) => {
  await androidBuild();
  const paths = artifactPaths();
  const jarBytes = statSync(path.join(MAVEN_DIR, paths.jar)).size;
  t.log(`jar ${jarBytes} B of ${JAR_BUDGET_BYTES} B`);
  t.true(jarBytes < JAR_BUDGET_BYTES, `${jarBytes} B`);
  const pom = readFileSync(path.join(MAVEN_DIR, paths.pom), 'utf8');
  t.regex(pom, new RegExp(`<version>${sdkVersion()}</version>`));
  t.regex(pom, new RegExp(`<artifactId>kotlin-stdlib</artifactId>\\s*<version>${KOTLIN_STDLIB_VERSION.replace(/\./g, '\\.')}</version>`));
});
