// Reading the dev mailbox page (svc dev's /dashboard/dev/mailbox) the way a developer does: over HTTP from this
// machine, no database client.
import { Browser } from './browser.js';

/** The links of the newest mail to `to` whose links include `pathPart`, as the page lists them. */
export async function mailboxLinks(baseUrl: string, to: string, pathPart: string): Promise<string[]> {
  const page = await new Browser().fetch(`${baseUrl}/dashboard/dev/mailbox?to=${encodeURIComponent(to)}`);
  if (page.status !== 200) throw new Error(`dev mailbox answered ${page.status}`);
  for (const article of page.text.split('<article').slice(1)) {
    const links = [...article.matchAll(/<a href="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
    if (links.some((l) => l.includes(pathPart))) return links;
  }
  return [];
}

export async function mailboxLink(baseUrl: string, to: string, pathPart: string): Promise<string> {
  const link = (await mailboxLinks(baseUrl, to, pathPart)).find((l) => l.includes(pathPart));
  if (!link) throw new Error(`no mail to ${to} with a ${pathPart} link in the dev mailbox`);
  return link;
}
