// GET /dashboard/creator: every campaign the creator joined, grouped by organization (each kept apart: one section
// per organization, whose pages show only that organization's money), each section opening with what that
// organization owes the creator and when (owed-card.tsx), under the one payout account's state.
import { EmptyState, StatePill } from '../view-kit/visual.js';
import { creatorOwedByOrg } from '../../db/creator-owed.js';
import { listCreatorCampaigns, type CreatorCampaign } from '../../db/creator-portal.js';
import { safeUrl } from '../view-kit/html.js';
import { PORTAL_PATH } from '../auth/authenticate.js';
import { storedPayoutAccount } from '../../actions/payout-accounts.js';
import { PAYOUT_ACCOUNT_PATH } from './payout-routes.js';
import type { AppContext } from '../context.js';
import { signedInCreator } from './auth.js';
import { portalPage, ScrollTable } from './layout.js';
import { OwedCard } from './owed-card.js';
import { accountStateText } from './payout-account.js';

export const campaignPath = (campaignId: string) => `${PORTAL_PATH}/campaigns/${encodeURIComponent(campaignId)}`;

export async function portalHome(ctx: AppContext): Promise<void> {
  const s = await signedInCreator(ctx);
  if (!s) return;
  const now = new Date();
  const [campaigns, owed, account] = await Promise.all([
    listCreatorCampaigns(ctx.deps.db, s.creator.id),
    creatorOwedByOrg(ctx.deps.db, s.creator.id),
    storedPayoutAccount(ctx.deps, s.creator.id),
  ]);
  const orgs = new Map<string, { name: string; rows: CreatorCampaign[] }>();
  for (const c of campaigns) {
    const org = orgs.get(c.org_id) ?? { name: c.org_name, rows: [] };
    org.rows.push(c);
    orgs.set(c.org_id, org);
  }
  portalPage(
    ctx,
    s,
    200,
    'My campaigns',
    campaigns.length === 0 ? (
      <EmptyState id="no-campaigns" title="You have not joined a campaign with this address.">
        Open the join link an app maker sent you (or ask them for one), then sign in here with the same address.
      </EmptyState>
    ) : (
      <>
        <p>
          Each commission is reserved from the app maker's prepaid wallet at the moment of the purchase, held until a stated date, then
          payable. Open a campaign to see yours.
        </p>
        <p id="home-payout-account">
          <strong>Payout account:</strong> {accountStateText(account)}{' '}
          <a href={PAYOUT_ACCOUNT_PATH}>{account.ready ? 'See your payout account' : 'Set up your payout account'}</a>
        </p>
        {[...orgs].map(([orgId, org]) => {
          const money = owed.find((o) => o.org_id === orgId);
          return (
            <section data-org={orgId} aria-labelledby={`org-${orgId}`}>
              <h2 id={`org-${orgId}`}>{org.name}</h2>
              {money ? <OwedCard owed={money} account={account} now={now} /> : null}
              <ScrollTable label={`Campaigns of ${org.name}`} columns={['Campaign', 'App', 'Your code', 'Status']}>
                {org.rows.map((c) => (
                  <tr>
                    <td>
                      <a href={safeUrl(campaignPath(c.campaign_id))}>{c.campaign_name}</a>
                    </td>
                    <td>{c.app_name}</td>
                    <td>
                      <code>{c.code}</code>
                    </td>
                    <td>
                      <StatePill state={c.campaign_status} />
                      {c.code_status === 'active' ? '' : ` (code ${c.code_status})`}
                    </td>
                  </tr>
                ))}
              </ScrollTable>
            </section>
          );
        })}
      </>
    ),
  );
}
