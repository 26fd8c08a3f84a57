// A real browser for the dashboard tests: playwright-core driving the machine's Chromium (Debian's
// /usr/bin/chromium, or CHROMIUM_PATH). No browser is a failure, never a skip (`.ci/run` installs chromium when it
// is missing). Screenshots go to test-output/screenshots/ (git-ignored), which `.ci/run` prints at the end.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { PROJECT_ROOT } from '../../runtime/temporal-binaries.js';

export const SCREENSHOT_DIR = path.join(PROJECT_ROOT, 'test-output', 'screenshots');
const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

export async function launchChromium(): Promise<Browser> {
  const executablePath = CANDIDATES.find((p): p is string => typeof p === 'string' && p !== '' && existsSync(p));
  if (!executablePath) {
    throw new Error(
      `No Chromium found (tried ${CANDIDATES.filter(Boolean).join(', ')}): install it (apt-get install -y ` +
        `chromium) or set CHROMIUM_PATH.${process.env.CI ? ' Under CI the browser tests fail without a browser.' : ''}`,
    );
  }
  // --no-sandbox: CI containers run as root, where Chromium's sandbox refuses to start.
  return chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/** Signs in on the dashboard's own form in `page` and waits for the apps list. */
export async function signInInBrowser(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/dashboard/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Apps' }).waitFor();
}
