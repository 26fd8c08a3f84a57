// Builds the Android SDK (packages/sdk-android) with the project's own files: kotlinc compiles the library, its JUnit
// unit tests and its contract tests into classes cached per source hash (an unchanged SDK does not recompile), then
// the library is packed as a Maven repository (jar, sources jar, POM, artifact metadata, md5/sha1/sha256/sha512 of
// each) under MAVEN_DIR, which the API serves at `{base_url}/sdk/maven/`. `npm test` runs this first (pretest).
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  ARTIFACT_ID,
  artifactPaths,
  BUILD_DIR,
  CHECKSUMS,
  GROUP_ID,
  JDK_RELEASE,
  KOTLIN_COMPAT,
  KOTLIN_STDLIB_VERSION,
  MAVEN_DIR,
  MIN_SDK,
  RELEASE_TIMESTAMP,
  SDK_ANDROID_ROOT,
  sdkVersion,
} from './layout.js';
import type { Toolchain } from './toolchain.js';

const run = promisify(execFile);

export type StageName = 'main' | 'test' | 'contract';
const FLAGS = [
  `-Xjdk-release=${JDK_RELEASE}`,
  `-jvm-target=${JDK_RELEASE}`,
  `-language-version=${KOTLIN_COMPAT}`,
  `-api-version=${KOTLIN_COMPAT}`,
  '-module-name=svc-attribution',
];
/** The one warning we accept: kotlinc 2.4 calls language version 2.0 deprecated; it is the compatibility we promise. */
const ACCEPTED_WARNING = /language version \S+ is deprecated/;

function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.kt') && statSync(path.join(dir, f)).isFile())
    .sort();
}

export const stageSources = (stage: StageName) => path.join(SDK_ANDROID_ROOT, 'src', stage, 'kotlin');

function sourceHash(tc: Toolchain, stage: string, dir: string, upstream: string): string {
  const hash = createHash('sha256').update(JSON.stringify([tc.kotlinVersion, FLAGS, stage, upstream]));
  for (const f of files(dir)) hash.update(`\0${f}\0`).update(readFileSync(path.join(dir, f)));
  return hash.digest('hex').slice(0, 16);
}

export interface Compiled {
  dir: string;
  hash: string;
  cached: boolean;
}

/** `upstream`: the library (and, for the contract tests, the unit tests' support code, e.g. `blocking`). */
async function compile(
  tc: Toolchain,
  stage: string,
  main: Compiled | null,
  extra: Compiled[] = [],
  sources = stageSources(stage as StageName),
): Promise<Compiled> {
  const hash = sourceHash(tc, stage, sources, [main, ...extra].map((c) => c?.hash ?? '').join(','));
  const classesRoot = path.join(BUILD_DIR, 'classes');
  const dir = path.join(classesRoot, `${stage}-${hash}`);
  if (existsSync(path.join(dir, '.complete'))) return { dir, hash, cached: true };
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const classpath = main ? [main.dir, ...extra.map((c) => c.dir), ...tc.junit, tc.stdlib] : [];
  const args = [...FLAGS, '-d', tmp, ...(main ? ['-Xfriend-paths=' + main.dir, '-cp', classpath.join(path.delimiter)] : []), sources];
  let output: string;
  try {
    const res = await run(tc.kotlinc, args, { maxBuffer: 16 << 20 });
    output = `${res.stdout}${res.stderr}`;
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    const e = err as { stdout?: string; stderr?: string };
    throw new Error(`kotlinc failed on src/${stage}:\n${e.stdout ?? ''}${e.stderr ?? ''}`);
  }
  const warnings = output.split('\n').filter((l) => /warning:/.test(l) && !ACCEPTED_WARNING.test(l));
  if (warnings.length) {
    rmSync(tmp, { recursive: true, force: true });
    throw new Error(`kotlinc warned on src/${stage} (the build allows none):\n${warnings.join('\n')}`);
  }
  writeFileSync(path.join(tmp, '.complete'), hash);
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir);
  for (const old of readdirSync(classesRoot).filter((d) => d.startsWith(`${stage}-`) && d !== path.basename(dir) && !d.includes('.tmp-')))
    rmSync(path.join(classesRoot, old), { recursive: true, force: true });
  return { dir, hash, cached: false };
}

export function pom(version: string): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0" ` +
    `xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ` +
    `xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  <groupId>${GROUP_ID}</groupId>
  <artifactId>${ARTIFACT_ID}</artifactId>
  <version>${version}</version>
  <packaging>jar</packaging>
  <name>svc Android SDK</name>
  <description>Referral attribution client for Android apps (wire contract client-side rules 1-14). Java ${JDK_RELEASE} ` +
    `bytecode, Kotlin ${KOTLIN_COMPAT} metadata, minSdk ${MIN_SDK}.</description>
  <properties>
    <android.minSdk>${MIN_SDK}</android.minSdk>
  </properties>
  <dependencies>
    <dependency>
      <groupId>org.jetbrains.kotlin</groupId>
      <artifactId>kotlin-stdlib</artifactId>
      <version>${KOTLIN_STDLIB_VERSION}</version>
      <scope>compile</scope>
    </dependency>
  </dependencies>
</project>
`
  );
}

export function metadata(version: string): string {
  const stamp = RELEASE_TIMESTAMP.replace(/[-:TZ]/g, '');
  return `<?xml version="1.0" encoding="UTF-8"?>
<metadata>
  <groupId>${GROUP_ID}</groupId>
  <artifactId>${ARTIFACT_ID}</artifactId>
  <versioning>
    <latest>${version}</latest>
    <release>${version}</release>
    <versions>
      <version>${version}</version>
    </versions>
    <lastUpdated>${stamp}</lastUpdated>
  </versioning>
</metadata>
`;
}

async function jar(tc: Toolchain, file: string, dir: string, entries: string[]): Promise<void> {
  const contents = entries.flatMap((e) => ['-C', dir, e]);
  await run(tc.jar, ['--create', `--date=${RELEASE_TIMESTAMP}`, '--no-manifest', '--file', file, ...contents]);
}

/** Packs the compiled library into the Maven repository the API serves (skipped when it holds this build). */
async function publish(tc: Toolchain, main: Compiled): Promise<boolean> {
  const stamp = path.join(MAVEN_DIR, '.source-hash');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === main.hash) return false;
  const version = sdkVersion();
  const paths = artifactPaths(version);
  const tmp = `${MAVEN_DIR}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(path.dirname(path.join(tmp, paths.jar)), { recursive: true });
  await jar(tc, path.join(tmp, paths.jar), main.dir, ['com', 'META-INF']);
  await jar(tc, path.join(tmp, paths.sources), stageSources('main'), ['com']);
  writeFileSync(path.join(tmp, paths.pom), pom(version));
  writeFileSync(path.join(tmp, paths.metadata), metadata(version));
  for (const rel of Object.values(paths)) {
    const bytes = readFileSync(path.join(tmp, rel));
    for (const [ext, algorithm] of Object.entries(CHECKSUMS))
      writeFileSync(path.join(tmp, `${rel}.${ext}`), createHash(algorithm).update(bytes).digest('hex'));
  }
  writeFileSync(path.join(tmp, '.source-hash'), main.hash);
  rmSync(MAVEN_DIR, { recursive: true, force: true });
  renameSync(tmp, MAVEN_DIR);
  return true;
}

export interface Build {
  main: Compiled;
  test: Compiled;
  contract: Compiled;
  published: boolean;
  ms: number;
}

let building: Promise<Build> | null = null;

/** Compiles what changed and publishes the library; concurrent callers in one process share one build. */
export function buildAndroidSdk(tc: Toolchain): Promise<Build> {
  return (building ??= (async () => {
    const started = Date.now();
    mkdirSync(path.join(BUILD_DIR, 'classes'), { recursive: true });
    const main = await compile(tc, 'main', null);
    const test = await compile(tc, 'test', main);
    const contract = await compile(tc, 'contract', main, [test]);
    const published = await publish(tc, main);
    return { main, test, contract, published, ms: Date.now() - started };
  })().finally(() => {
    building = null;
  }));
}

export interface JUnitRun {
  ok: boolean;
  tests: number;
  output: string;
}

/** Runs JUnit 4 test classes on the built library; system properties pass the service's address and keys. */
export async function runJUnit(
  tc: Toolchain,
  build: Build,
  stage: 'test' | 'contract',
  classes: string[],
  props: Record<string, string> = {},
): Promise<JUnitRun> {
  const cp = [build.main.dir, build.test.dir, build[stage].dir, ...tc.junit, tc.stdlib].join(path.delimiter);
  const args = [...Object.entries(props).map(([k, v]) => `-D${k}=${v}`), '-cp', cp, 'org.junit.runner.JUnitCore', ...classes];
  const res = await run(tc.java, args, { maxBuffer: 16 << 20 }).then(
    (r) => ({ ok: true, output: r.stdout + r.stderr }),
    (err: { stdout?: string; stderr?: string }) => ({ ok: false, output: `${err.stdout ?? ''}${err.stderr ?? ''}` }),
  );
  const tests = Number(/OK \((\d+) tests?\)/.exec(res.output)?.[1] ?? /Tests run: (\d+)/.exec(res.output)?.[1] ?? 0);
  return { ...res, tests };
}

/** The JUnit classes of a stage: every *Test.kt file's class, by the package path of its folder. */
export function testClasses(stage: 'test' | 'contract'): string[] {
  return files(stageSources(stage))
    .filter((f) => f.endsWith('Test.kt'))
    .map((f) => f.replace(/\.kt$/, '').split(path.sep).join('.'));
}

/**
 * Compiles Kotlin sources that are not the SDK's own against the built library (the registry's Kotlin scaffolds with
 * stubs of the Android and store libraries they call): cached like the stages, keyed on the files' content.
 */
export async function compileAgainstLibrary(tc: Toolchain, build: Build, name: string, files: Record<string, string>): Promise<Compiled> {
  const hash = createHash('sha256')
    .update(JSON.stringify(Object.entries(files).sort()))
    .digest('hex')
    .slice(0, 16);
  const sources = path.join(BUILD_DIR, 'sources', `${name}-${hash}`);
  if (!existsSync(sources)) {
    const root = path.dirname(sources);
    if (existsSync(root))
      for (const old of readdirSync(root).filter((d) => d.startsWith(`${name}-`)))
        rmSync(path.join(root, old), { recursive: true, force: true });
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(sources, rel)), { recursive: true });
      writeFileSync(path.join(sources, rel), text);
    }
  }
  return compile(tc, name, build.main, [], sources);
}
