// `npm run build:sdk-android` (and `npm test`'s pretest): builds the Android SDK when the toolchain is here. Without
// a JDK or JUnit it says what is missing and stops quietly, except under CI (env CI set), where it fails: CI must
// build and test it (.ci/run installs the toolchain first).
import { buildAndroidSdk } from './build.js';
import { findToolchain, missingText } from './toolchain.js';

const tc = findToolchain();
if ('missing' in tc) {
  console.error(`${missingText(tc.missing)} Skipped${process.env.CI ? '; under CI this fails' : ' (the Android SDK tests will say so)'}.`);
  process.exit(process.env.CI ? 1 : 0);
}
const build = await buildAndroidSdk(tc);
const fresh = (['main', 'test', 'contract'] as const).filter((s) => !build[s].cached);
console.log(
  `android sdk: ${fresh.length ? `compiled ${fresh.join(', ')}` : 'unchanged (cached)'}${build.published ? ', published' : ''} ` +
    `in ${(build.ms / 1000).toFixed(1)} s`,
);
