// The creators table (every creator code in the organization's campaigns, with counts and production money) shown
// on GET /dashboard/creators, and the invitations table, GET /dashboard/invitations. Both read the rows the agent
// API's reads return (db/invitations.ts), searched, sorted and paged; `?format=csv` exports the filtered view.
import { StatePill } from '../../view-kit/visual.js';
import {
  CREATOR_TABLE,
  INVITATION_TABLE,
  pageInvitations,
  pageOrgAffiliates,
  type InvitationTableRow,
  type OrgAffiliateRow,
} from '../../../db/invitations.js';
import { accountStateForDeveloper } from '../../../lib/payout-readiness.js';
import type { TablePage } from '../../../lib/table-query.js';
import type { AppContext } from '../../context.js';
import { DataTable, sendTableCsv, tableRequest, timeColumn, usd, type TableDef } from '../../view-kit/data-table.js';
import { ButtonForm, dashboardPage, OrgLink, orgLink, PostForm, type SignedIn } from '../../view-kit/layout.js';
import { signedIn } from '../signed-in.js';

/** The creator's payout account in words (lib/payout-readiness.ts decides; the portal shows the creator the same state). */
const payoutAccountOf = (r: OrgAffiliateRow) =>
  accountStateForDeveloper({
    provider: r.payout_provider,
    transfersActive: r.payout_transfers_active,
    payoutsEnabled: r.payout_payouts_enabled,
    requirementsDue: r.payout_requirements_due,
    disabledReason: r.payout_disabled_reason,
  });

const creatorPath = (id: string) => `/dashboard/creators/${encodeURIComponent(id)}`;

/** What the creators page shows again after a refused "add email and invite": the field's text and the message beside it. */
export interface PortalInviteError {
  creatorId: string;
  email: string;
  message: string;
}

/** For a creator without an address: why they cannot sign in, and the form that adds one and mails the portal link. */
function PortalInvite({ s, row, error }: { s: SignedIn; row: OrgAffiliateRow; error?: PortalInviteError }) {
  const id = `portal-email-${row.campaign_id}-${row.creator_id}`;
  const mine = error?.creatorId === row.creator_id ? error : undefined;
  return (
    <div class="portal-invite">
      <p class="muted">No email: cannot sign in to the creator portal.</p>
      <PostForm s={s} action={`/dashboard/creators/${row.creator_id}/portal-invite`} returnTo={orgLink(s, '/dashboard/creators')}>
        <label for={id}>Creator's email</label>
        <input
          id={id}
          name="email"
          type="email"
          required
          maxlength={254}
          value={mine?.email}
          aria-invalid={mine ? 'true' : undefined}
          aria-describedby={mine ? `${id}-error` : undefined}
        />
        {mine ? (
          <p id={`${id}-error`} class="error">
            {mine.message}
          </p>
        ) : null}
        <button type="submit">Add email and invite</button>
      </PostForm>
    </div>
  );
}

function creatorTable(s: SignedIn, error?: PortalInviteError): TableDef<OrgAffiliateRow> {
  return {
    id: 'creators',
    caption: 'Creators',
    spec: CREATOR_TABLE,
    file: 'creators.csv',
    rowKey: (r) => r.creator_code_id,
    columns: [
      {
        label: 'Creator',
        sort: 'name',
        text: (r) => r.name,
        html: (r) => (
          <OrgLink s={s} to={creatorPath(r.creator_id)}>
            {r.name}
          </OrgLink>
        ),
      },
      {
        label: 'Email',
        sort: 'email',
        wrapAny: true,
        text: (r) => r.email,
        html: (r) => (r.email ? r.email : <PortalInvite s={s} row={r} error={error} />),
      },
      { label: 'Campaign', sort: 'campaign_name', text: (r) => r.campaign_name },
      { label: 'Code', sort: 'code', text: (r) => r.code, html: (r) => <code>{r.code}</code> },
      { label: 'Code status', sort: 'status', text: (r) => r.status, html: (r) => <StatePill state={r.status} label={r.status} /> },
      {
        label: 'Payout account',
        text: (r) => payoutAccountOf(r).words,
        html: (r) => {
          const a = payoutAccountOf(r);
          return (
            <span class="payout-account" data-payout-account={a.state}>
              {a.words}
            </span>
          );
        },
      },
      { label: 'Joined by', text: (r) => r.source },
      timeColumn('Joined', (r) => r.joined_at, 'joined_at'),
      { label: 'Clicks', sort: 'clicks', text: (r) => r.clicks },
      { label: 'Installs', sort: 'installs', text: (r) => r.installs },
      { label: 'Conversions', sort: 'production_conversions', text: (r) => r.production_conversions },
      { label: 'Revenue (USD)', sort: 'revenue_micros', text: (r) => usd(r.revenue_micros) },
      { label: 'Commission (USD)', sort: 'commission_micros', text: (r) => usd(r.commission_micros) },
    ],
  };
}

/** The creators table of the creators page, or undefined after answering its CSV. */
export async function creatorTableSection(ctx: AppContext, s: SignedIn, orgId: string, error?: PortalInviteError) {
  const { view, csv, window } = tableRequest(ctx, CREATOR_TABLE);
  const def = creatorTable(s, error);
  const page = await pageOrgAffiliates(ctx.deps.db, orgId, view, window);
  if (csv) return sendTableCsv(ctx, def, page);
  return (
    <>
      <h2>All creators</h2>
      <DataTable s={s} def={def} page={page} view={view} path="/dashboard/creators" />
    </>
  );
}

function invitationTable(s: SignedIn, back: string): TableDef<InvitationTableRow> {
  return {
    id: 'invitation-table',
    caption: 'Invitations',
    spec: INVITATION_TABLE,
    file: 'invitations.csv',
    rowKey: (r) => r.id,
    columns: [
      { label: 'Email', sort: 'email', wrapAny: true, text: (r) => String(r.email) },
      { label: 'Name', sort: 'name', text: (r) => (r.name as string | null) ?? '' },
      { label: 'Campaign', sort: 'campaign_name', text: (r) => r.campaign_name },
      { label: 'Status', sort: 'status', text: (r) => r.status, html: (r) => <StatePill state={r.status} label={String(r.status)} /> },
      timeColumn('Sent', (r) => r.created_at as Date, 'created_at'),
      timeColumn('Expires', (r) => r.expires_at as Date, 'expires_at'),
      {
        label: 'Action',
        action: true,
        text: () => '',
        html: (r) =>
          r.status === 'PENDING' ? (
            <ButtonForm s={s} action={`/api/invitations/${r.id}/withdraw`} label="Withdraw" returnTo={back} />
          ) : null,
      },
    ],
  };
}

export async function invitationsPage(ctx: AppContext): Promise<void> {
  const s = await signedIn(ctx);
  if (!s) return;
  if (!s.orgId) return dashboardPage(ctx, s, 200, 'Invitations', <p>You belong to no organization.</p>);
  const { view, csv, window } = tableRequest(ctx, INVITATION_TABLE);
  const def = invitationTable(s, ctx.originalUrl);
  const page: TablePage<InvitationTableRow> = await pageInvitations(ctx.deps.db, [s.orgId], {}, view, window);
  if (csv) return sendTableCsv(ctx, def, page);
  dashboardPage(
    ctx,
    s,
    200,
    'Invitations',
    <>
      <p class="muted">
        Every invitation of the organization, any status. Invite creators on the{' '}
        <OrgLink s={s} to="/dashboard/creators">
          creators page
        </OrgLink>
        .
      </p>
      <DataTable s={s} def={def} page={page} view={view} path="/dashboard/invitations" />
    </>,
  );
}
