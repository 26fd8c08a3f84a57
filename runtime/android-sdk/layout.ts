// Where the Android SDK (packages/sdk-android, Kotlin) is built and what it is published as: the one owner of its
// Maven coordinates, its compatibility promises and the on-disk Maven repository the API serves under
// `{base_url}/sdk/maven/` (api/sdk-maven). The version is read from the Kotlin source (SvcClient.SDK_VERSION), so
// the library, its POM and the registry (test/unit/sdk-registry-truth.test.ts) cannot disagree.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const SDK_ANDROID_ROOT = path.join(PROJECT_ROOT, 'packages', 'sdk-android');
/** Build output (ignored by git): cached classes per source hash, the Maven repository, JUnit reports. */
export const BUILD_DIR = path.join(SDK_ANDROID_ROOT, 'build');
export const MAVEN_DIR = path.join(BUILD_DIR, 'maven');

export const GROUP_ID = 'com.svc';
export const ARTIFACT_ID = 'attribution';
/** Apps compile against the library with Kotlin 2.0 or newer: -language-version/-api-version, and the POM's stdlib. */
export const KOTLIN_COMPAT = '2.0';
export const KOTLIN_STDLIB_VERSION = '2.0.0';
/** Bytecode for Java 8 (-Xjdk-release=1.8): every Android version D8 desugars for. */
export const JDK_RELEASE = '1.8';
/** The lowest Android API level the library supports (HttpURLConnection, Locale.toLanguageTag: API 21). */
export const MIN_SDK = 21;
/** The jar without the Kotlin standard library stays under this (README "Android SDK"). */
export const JAR_BUDGET_BYTES = 150_000;
/** The POM's and metadata's timestamp and every jar entry's date: a rebuild of the same source is byte-identical. */
export const RELEASE_TIMESTAMP = '2026-11-29T00:00:00Z';

export function sdkVersion(): string {
  const source = readFileSync(path.join(SDK_ANDROID_ROOT, 'src/main/kotlin/com/svc/attribution/SvcClient.kt'), 'utf8');
  const found = /const val SDK_VERSION = "([^"]+)"/.exec(source);
  if (!found) throw new Error('SvcClient.kt declares no SDK_VERSION');
  return found[1]!;
}

/** `com.svc:attribution:1.1.1` */
export const coordinates = (version = sdkVersion()) => `${GROUP_ID}:${ARTIFACT_ID}:${version}`;

/** Repository-relative paths of the artifact's files (Maven 2 layout). */
export function artifactPaths(version = sdkVersion()) {
  const dir = `${GROUP_ID.replace(/\./g, '/')}/${ARTIFACT_ID}`;
  const stem = `${dir}/${version}/${ARTIFACT_ID}-${version}`;
  return { metadata: `${dir}/maven-metadata.xml`, pom: `${stem}.pom`, jar: `${stem}.jar`, sources: `${stem}-sources.jar` };
}

export const CHECKSUMS = { md5: 'md5', sha1: 'sha1', sha256: 'sha256', sha512: 'sha512' } as const;
