// Signing a creator in to the portal from tests the way a browser does: ask for the link on the sign-in form, read it
// from the creator's mail (test/helpers/creator-mail.ts), open the confirm page and press its button.
import type { Knex } from 'knex';
import { Browser, formAction, inputValue } from './browser.js';
import { latestSignInLink } from './creator-mail.js';

export async function askForLink(baseUrl: string, browser: Browser, email: string, ip = '198.51.100.1') {
  const headers = { 'x-forwarded-for': ip };
  const form = await browser.fetch(`${baseUrl}/dashboard/creator/sign-in`, { headers });
  return browser.fetch(`${baseUrl}/dashboard/creator/sign-in`, { form: { csrf: inputValue(form.text, 'csrf') ?? '', email }, headers });
}

/** Confirms a mailed link in `browser`: the confirm page, then its POST (`headers`: as a given device would send). */
export async function confirmLink(browser: Browser, link: string, headers: Record<string, string> = {}) {
  const page = await browser.fetch(link, { headers });
  if (page.status !== 200) return page;
  return browser.fetch(formAction(page.text, link), {
    form: { csrf: inputValue(page.text, 'csrf') ?? '', token: inputValue(page.text, 'token') ?? '' },
    headers,
  });
}

export interface CreatorSession {
  browser: Browser;
  token: string;
}

/** `device`: the session is opened from this address and User-Agent (else the test's own connection). */
export async function signInCreator(
  baseUrl: string,
  db: Knex,
  email: string,
  ip?: string,
  device?: { ip: string; userAgent: string },
): Promise<CreatorSession> {
  const browser = new Browser();
  const asked = await askForLink(baseUrl, browser, email, ip);
  if (asked.status !== 200) throw new Error(`link request failed: ${asked.status}`);
  const link = await latestSignInLink(db, email);
  if (!link) throw new Error(`no sign-in link mailed to ${email}`);
  const done = await confirmLink(browser, link, device ? { 'x-forwarded-for': device.ip, 'user-agent': device.userAgent } : {});
  const token = browser.cookies.get('svc_creator');
  if (done.status !== 303 || !token) throw new Error(`confirm failed: ${done.status} ${done.text.slice(0, 200)}`);
  return { browser, token };
}
