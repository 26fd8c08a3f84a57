// GET /dashboard/creators/{creator_id}: one creator as this organization knows them: their codes in its campaigns
// with counts, revenue and commission (the creators table's rows, db/invitations.ts pageOrgAffiliates), their
// commissions by state and what they owe back (getCreatorMoneySummary for one creator), their store offer codes per
// campaign with the add and retire forms (offer-codes-section.tsx), and their payouts (the
// payouts table, `?format=csv` exporting it). A creator with no code in the organization's campaigns is 404, the
// same page as an id that does not exist: creators are shared between organizations, their work here is not.
import { findCreatorInOrg } from '../../../db/creators.js';
import { getCreatorMoneySummary, payableNow } from '../../../db/creator-balances.js';
import { pageOrgAffiliates } from '../../../db/invitations.js';
import { listCreatorOfferCodes } from '../../../db/offer-codes.js';
import { PAYOUT_TABLE, pagePayouts } from '../../../db/payout-history.js';
import { formatUsd } from '../../../lib/money.js';
import { CSV_ROW_CAP, type TableView } from '../../../lib/table-query.js';
import type { AppContext } from '../../context.js';
import { DataTable, sendTableCsv, tableRequest, usd } from '../../view-kit/data-table.js';
import { LocalTime } from '../../view-kit/ui.js';
import { dashboardPage, OrgLink, orgLink, Table } from '../../view-kit/layout.js';
import { signedIn } from '../signed-in.js';
import { payoutTable } from '../wallet/money-tables.js';
import { OfferCodesSection } from './offer-codes-section.js';

/** Every code of the creator here (a creator holds one code per campaign; the organization has few campaigns). */
const ALL_CODES: TableView = { sort: 'joined_at', dir: 'asc', page: 1, pageSize: CSV_ROW_CAP };

export async function creatorPage(ctx: AppContext): Promise<void> {
  const s = await signedIn(ctx);
  if (!s) return;
  const db = ctx.deps.db;
  const creatorId = ctx.params.creator_id as string;
  const creator = s.orgId ? await findCreatorInOrg(db, s.orgId, creatorId) : undefined;
  if (!s.orgId || !creator)
    return dashboardPage(
      ctx,
      s,
      404,
      'Creator not found',
      <>
        <p>No such creator in your organization.</p>
        <p>
          <OrgLink s={s} to="/dashboard/creators">
            All creators
          </OrgLink>
        </p>
      </>,
    );
  const { view, csv, window } = tableRequest(ctx, PAYOUT_TABLE);
  const def = payoutTable(s, { withCreator: false });
  const payouts = await pagePayouts(db, s.orgId, { creatorId: creator.id }, view, window);
  if (csv) return sendTableCsv(ctx, { ...def, file: 'creator-payouts.csv' }, payouts);
  const [codes, money, offerCodes] = await Promise.all([
    pageOrgAffiliates(db, s.orgId, ALL_CODES, { limit: CSV_ROW_CAP, offset: 0 }, { creatorId: creator.id }),
    getCreatorMoneySummary(db, s.orgId, { creatorId: creator.id }),
    listCreatorOfferCodes(db, creator.id, s.orgId),
  ]);
  const here = `/dashboard/creators/${encodeURIComponent(creator.id)}`;
  const sum = (k: 'revenue_micros' | 'commission_micros') => codes.rows.reduce((n, r) => n + Number(r[k]), 0);
  const c = money.commissions;
  const figure = (id: string, label: string, value: string) => (
    <tr>
      <th scope="row">{label}</th>
      <td id={id}>{value}</td>
    </tr>
  );
  dashboardPage(
    ctx,
    s,
    200,
    `Creator ${creator.name}`,
    <>
      <p class="muted">
        {creator.email ?? 'No email'}
        {creator.social_handle ? ` · ${creator.social_handle}` : ''} ·{' '}
        <OrgLink s={s} to="/dashboard/creators">
          All creators
        </OrgLink>
      </p>
      <div class="table-scroll" role="region" aria-labelledby="creator-money-caption" tabindex={0}>
        <table id="creator-money">
          <caption id="creator-money-caption">Money in this organization (production, all time)</caption>
          <tbody>
            {figure('creator-revenue', 'Revenue brought (net of refunds)', formatUsd(sum('revenue_micros')))}
            {figure('creator-commission', 'Commission earned (net of refunds)', formatUsd(sum('commission_micros')))}
            {figure('creator-held', 'Held (in the holding period)', `${formatUsd(c.held.micros)} (${c.held.count})`)}
            {c.under_review.count > 0
              ? figure('creator-under-review', 'Held for review', `${formatUsd(c.under_review.micros)} (${c.under_review.count})`)
              : null}
            {figure(
              'creator-payable',
              'Payable now',
              `${formatUsd(payableNow(money).micros)} (${c.payable.count} commission(s), ${money.awardsPayable.count} bonus award(s))`,
            )}
            {figure('creator-paid', 'Paid', `${formatUsd(c.paid.micros)} (${c.paid.count})`)}
            {figure(
              'creator-clawbacks',
              'Owes back (clawbacks outstanding)',
              `${formatUsd(money.clawbacksOutstanding.micros)} (${money.clawbacksOutstanding.count})`,
            )}
          </tbody>
        </table>
      </div>
      <h2>Codes</h2>
      <div class="table-scroll" role="region" aria-label="Codes" tabindex={0}>
        <Table
          id="creator-codes"
          columns={[
            'Campaign',
            'Code',
            'Code status',
            'Joined (UTC)',
            'Clicks',
            'Installs',
            'Conversions',
            'Revenue (USD)',
            'Commission (USD)',
          ]}
        >
          {codes.rows.map((r) => (
            <tr>
              <td>
                <OrgLink s={s} to={`/dashboard/campaigns/${r.campaign_id}`}>
                  {r.campaign_name}
                </OrgLink>
              </td>
              <td>
                <code>{r.code}</code>
              </td>
              <td>{r.status}</td>
              <td>
                <LocalTime at={r.joined_at} />
              </td>
              <td>{r.clicks}</td>
              <td>{r.installs}</td>
              <td>{r.production_conversions}</td>
              <td>{usd(r.revenue_micros)}</td>
              <td>{usd(r.commission_micros)}</td>
            </tr>
          ))}
        </Table>
      </div>
      <OfferCodesSection
        s={s}
        creatorId={creator.id}
        memberships={codes.rows}
        codes={offerCodes}
        back={`${orgLink(s, here)}#offer-codes`}
      />
      <h2>Payouts</h2>
      <DataTable s={s} def={def} page={payouts} view={view} path={here} />
    </>,
  );
}
