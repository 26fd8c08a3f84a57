// The tools the Android SDK's build needs, found on this machine: a JDK (java, jar), the Kotlin compiler of the
// pinned npm devDependency `kotlin-compiler` (its bin/kotlinc script, called by path: its npm `bin` is only
// kotlinc-js) and JUnit 4 with Hamcrest (Debian's junit4 package). `.ci/run` installs the Debian packages when missing.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from './layout.js';

export interface Toolchain {
  java: string;
  jar: string;
  kotlinc: string;
  kotlinVersion: string;
  stdlib: string;
  junit: string[];
}

function onPath(name: string): string | null {
  const home = process.env.JAVA_HOME ? path.join(process.env.JAVA_HOME, 'bin', name) : null;
  if (home && existsSync(home)) return home;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, name);
    if (dir && existsSync(candidate)) return candidate;
  }
  return null;
}

const JUNIT_DIRS = ['/usr/share/java'];

/** The toolchain, or the list of what is missing with how to get it. */
export function findToolchain(): Toolchain | { missing: string[] } {
  const missing: string[] = [];
  const java = onPath('java');
  const jar = onPath('jar');
  if (!java || !jar) missing.push('a JDK 17 (java and jar; Debian: apt-get install -y openjdk-17-jdk-headless)');
  const compilerDir = path.join(PROJECT_ROOT, 'node_modules', 'kotlin-compiler');
  const kotlinc = path.join(compilerDir, 'bin', 'kotlinc');
  if (!existsSync(kotlinc)) missing.push('the Kotlin compiler (npm devDependency kotlin-compiler: run npm install)');
  const junitDirs = process.env.JUNIT_DIR ? [process.env.JUNIT_DIR] : JUNIT_DIRS;
  const find = (name: string) => junitDirs.map((d) => path.join(d, name)).find((p) => existsSync(p));
  const junit = [find('junit4.jar'), find('hamcrest-core.jar') ?? find('hamcrest.jar')];
  if (junit.some((p) => !p))
    missing.push('JUnit 4 with Hamcrest (Debian: apt-get install -y junit4; or JUNIT_DIR with junit4.jar and hamcrest-core.jar)');
  if (missing.length) return { missing };
  const kotlinVersion = (JSON.parse(readFileSync(path.join(compilerDir, 'package.json'), 'utf8')) as { version: string }).version;
  return {
    java: java!,
    jar: jar!,
    kotlinc,
    kotlinVersion,
    stdlib: path.join(compilerDir, 'lib', 'kotlin-stdlib.jar'),
    junit: junit as string[],
  };
}

/** The message for a missing toolchain; under CI (env CI set) callers fail with it instead of skipping. */
export const missingText = (missing: string[]) => `The Android SDK build needs ${missing.join('; ')}.`;
