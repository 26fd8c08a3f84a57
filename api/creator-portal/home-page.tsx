// GET /dashboard/creator: every campaign the creator joined, grouped by organization (each kept apart: one section
// per organization, whose pages show only that organization's money).
import { listCreatorCampaigns, type CreatorCampaign } from '../../db/creator-portal.js';
import { safeUrl } from '../../lib/html.js';
import { PORTAL_PATH } from '../auth/authenticate.js';
import type { AppContext } from '../context.js';
import { signedInCreator } from './auth.js';
import { portalPage, ScrollTable } from './layout.js';

export const campaignPath = (campaignId: string) => `${PORTAL_PATH}/campaigns/${encodeURIComponent(campaignId)}`;

export async function portalHome(ctx: AppContext): Promise<void> {
  const s = await signedInCreator(ctx);
  if (!s) return;
  const campaigns = await listCreatorCampaigns(ctx.deps.db, s.creator.id);
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
      <p>You have not joined a campaign with this address.</p>
    ) : (
      <>
        <p>
          Each commission is reserved from the app maker's prepaid wallet at the moment of the purchase, held until a stated date, then
          payable. Open a campaign to see yours.
        </p>
        {[...orgs].map(([orgId, org]) => (
          <section data-org={orgId} aria-labelledby={`org-${orgId}`}>
            <h2 id={`org-${orgId}`}>{org.name}</h2>
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
                    {c.campaign_status}
                    {c.code_status === 'active' ? '' : ` (code ${c.code_status})`}
                  </td>
                </tr>
              ))}
            </ScrollTable>
          </section>
        ))}
      </>
    ),
  );
}
