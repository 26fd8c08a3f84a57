// GET {base_url}/{app_slug}/{code}: a referral link (CONTRACT.md "Referral links"). Records the click with what the
// request tells about the device, then sends the visitor to the app's store or web page with `svc_code` and
// `svc_click`, which the app hands to track-install. Links of a paused or draft campaign (or a removed code) still lead
// to the app but record nothing and carry no code: such a code would attribute nothing.
import type Koa from 'koa';
import { recordClick } from '../../actions/sdk-intake/click.js';
import { findReferralLink, type ReferralLink } from '../../db/referral-links.js';
import { cleanupCode } from '../../lib/codes.js';
import { destinationUrl, linkAttributes, linkHints, withReferralParams, type LinkHints } from '../../lib/referral-link.js';
import { isValidSlug, RESERVED_SLUGS } from '../../lib/slugs.js';
import type { AppContext } from '../context.js';
import { sendPage } from '../send-page.js';
import { enterCodePage, unknownLinkPage } from './link-pages.js';

const reserved = [...RESERVED_SLUGS].map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');

/**
 * Exactly two segments whose first is not a reserved word. Reserved paths (`/api/x`, `/dashboard/x`) never match,
 * so they keep their surface's own 404/405 answers: a plain `/:slug/:code` route would make the router answer
 * `POST /api/x` with 405 and `OPTIONS` with an Allow list. `toString` gives /metrics a readable route label.
 */
export const REFERRAL_LINK_PATH = Object.assign(new RegExp(`^/(?!(?:${reserved})/)([^/]+)/([^/]+)/?$`, 'i'), {
  toString: () => '/:slug/:code',
});

export async function followLink(ctx: AppContext, next: Koa.Next): Promise<void> {
  const [slug, rawCode] = linkSegments(ctx);
  if (RESERVED_SLUGS.has(slug)) return next(); // a percent-encoded reserved word the pattern could not see
  const code = cleanupCode(rawCode);
  const link = isValidSlug(slug) ? await findReferralLink(ctx.deps.db, slug, code) : undefined;
  if (!link) return answerUnlessClaimed(ctx, next, code);
  ctx.set(LINK_HEADERS);
  if (!link.code) return sendPage(ctx, 404, unknownLinkPage(code));

  const attributes = linkAttributes(link.code);
  const hints = linkHints(ctx.query, ctx.get('user-agent'));
  // HEAD is what link checkers and preview bots send; no visitor follows it, so it is no click.
  const click = attributes && ctx.method === 'GET' ? await recordLinkClick(ctx, link.app.id, link.code, hints) : undefined;
  const destination = destinationUrl(link.app, hints.platform);
  if (!destination) return sendPage(ctx, 200, enterCodePage(link.app.name, attributes ? code : undefined));
  ctx.redirect(withReferralParams(destination, attributes ? { svc_code: code, svc_click: click?.id } : {}));
}

const LINK_HEADERS = { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' };

/**
 * No app has this slug, so the path may belong to something mounted after the links (the test harness mounts its
 * probe routes there): only when nothing downstream answers is it an unknown link.
 */
async function answerUnlessClaimed(ctx: AppContext, next: Koa.Next, code: string): Promise<void> {
  await next();
  if (ctx.status !== 404 || ctx.body !== undefined) return;
  ctx.set(LINK_HEADERS);
  sendPage(ctx, 404, unknownLinkPage(code));
}

function linkSegments(ctx: AppContext): [string, string] {
  const decode = (s: string | undefined) => {
    try {
      return decodeURIComponent(s ?? '');
    } catch {
      return s ?? '';
    }
  };
  const captures = (ctx as unknown as { captures?: string[] }).captures ?? [];
  return [decode(captures[0]).toLowerCase(), decode(captures[1])];
}

function header(ctx: AppContext, name: string, max: number): string | null {
  return ctx.get(name).slice(0, max) || null;
}

type LinkCode = NonNullable<ReferralLink['code']>;

async function recordLinkClick(ctx: AppContext, appId: string, code: LinkCode, hints: LinkHints): Promise<{ id: string }> {
  return recordClick(ctx.deps, {
    appId,
    campaignId: code.campaignId,
    creatorCodeId: code.creatorCodeId,
    code: code.code,
    source: 'link',
    ip: ctx.state.clientIp || null,
    userAgent: header(ctx, 'user-agent', 1024),
    referrer: header(ctx, 'referer', 2048),
    platform: hints.platform,
    osVersion: hints.osVersion,
    language: hints.language,
    timezone: hints.timezone,
    screen: hints.screen,
    deviceHints: hints.raw,
  });
}
