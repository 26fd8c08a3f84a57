// The Android SDK's toolchain for its test files: present, the tests build (cached) and run; absent, they are
// skipped with the reason, except under CI (env CI set), where they run and fail with what to install.
import type { TestFn } from 'ava';
import { buildAndroidSdk, type Build } from '../../runtime/android-sdk/build.js';
import { findToolchain, missingText, type Toolchain } from '../../runtime/android-sdk/toolchain.js';

const found = findToolchain();

export function androidTest(test: TestFn<unknown>): TestFn<unknown> {
  if ('missing' in found && !process.env.CI) {
    console.warn(`${missingText(found.missing)} The Android SDK tests are skipped.`);
    return test.skip as unknown as TestFn<unknown>;
  }
  return test;
}

/** The toolchain and the build (compiled only when the sources changed since the last build). */
export async function androidBuild(): Promise<{ tc: Toolchain; build: Build }> {
  if ('missing' in found) throw new Error(`${missingText(found.missing)} Under CI the Android SDK tests fail without it.`);
  return { tc: found, build: await buildAndroidSdk(found) };
}
