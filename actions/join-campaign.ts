// A creator joining a campaign (CONTRACT.md "Public creator join"; api/public/join-campaign.ts translates the request
// and the answer): one transaction finds or creates the creator, gives the code (db/campaign-join-writes.ts) and, for
// a new membership, queues the welcome mail, so a join that rolls back mails nothing; joining again mails nothing.
import type { Knex } from 'knex';
import { joinCampaign as joinCampaignInDb, type Joined, type JoinRequest } from '../db/campaign-join-writes.js';
import { creatorLinkUrl } from '../lib/referral-link.js';
import { mailWelcome } from './creator-welcome-mail.js';

export interface JoinDeps {
  db: Knex;
  /** Public origin of the referral links (config BASE_URL). */
  baseUrl: string;
  /** Public origin of the dashboard (config DASHBOARD_URL): the welcome mail's sign-in link. */
  dashboardUrl: string;
}

export async function joinCampaign(deps: JoinDeps, input: JoinRequest & { email: string }): Promise<Joined & { link: string }> {
  return deps.db.transaction(async (trx) => {
    const joined = await joinCampaignInDb(trx, input);
    const link = creatorLinkUrl(deps.baseUrl, joined.campaign.app_slug, joined.code);
    if (joined.joined) {
      await mailWelcome(trx, deps.dashboardUrl, {
        creatorId: joined.creatorId,
        email: input.email,
        name: input.name,
        orgId: joined.campaign.org_id,
        campaignId: joined.campaignId,
        campaignName: joined.campaign.name,
        code: joined.code,
        referralLink: link,
      });
    }
    return { ...joined, link };
  });
}
