// The wallet's full tables: GET /dashboard/wallet/ledger (every ledger entry with the running totals it left) and
// GET /dashboard/wallet/payouts (every creator's line of every payout run), searched, sorted and paged, `?format=csv`
// exporting the filtered view. The wallet page keeps its latest entries and runs and links here.
import { StateText } from '../../view-kit/visual.js';
import { PAYOUT_TABLE, pagePayouts, type PayoutTableRow } from '../../../db/payout-history.js';
import { LEDGER_TABLE, pageLedgerEntries, type LedgerLine } from '../../../db/wallet-history.js';
import { payoutStatus } from '../../../lib/payout-status.js';
import type { AppContext } from '../../context.js';
import { DataTable, sendTableCsv, tableRequest, timeColumn, usd, type TableDef } from '../../view-kit/data-table.js';
import { dashboardPage, OrgLink, type SignedIn } from '../../view-kit/layout.js';
import { signedIn } from '../signed-in.js';

const LEDGER: TableDef<LedgerLine> = {
  id: 'ledger-table',
  caption: 'Ledger entries',
  spec: LEDGER_TABLE,
  file: 'ledger.csv',
  rowKey: (r) => String(r.id),
  columns: [
    { label: 'Entry', sort: 'id', text: (r) => r.id },
    timeColumn('When', (r) => r.created_at),
    { label: 'Type', sort: 'entry_type', text: (r) => r.entry_type },
    { label: 'Balance change (USD)', sort: 'balance_delta_micros', text: (r) => usd(r.balance_delta_micros) },
    { label: 'Reserved change (USD)', sort: 'reserved_delta_micros', text: (r) => usd(r.reserved_delta_micros) },
    { label: 'Balance after (USD)', sort: 'balance_after_micros', text: (r) => usd(r.balance_after_micros) },
    { label: 'Reserved after (USD)', text: (r) => usd(r.reserved_after_micros) },
    { label: 'Note', text: (r) => r.memo ?? r.commission_id ?? r.bonus_award_id ?? r.external_ref ?? '' },
  ],
};

/** A creator's payouts on the creator page and the organization's on the payouts page. */
export function payoutTable(s: SignedIn, opts: { withCreator: boolean } = { withCreator: true }): TableDef<PayoutTableRow> {
  const creator = opts.withCreator
    ? [
        {
          label: 'Creator',
          sort: 'creator_name',
          text: (r: PayoutTableRow) => r.creator_name ?? r.creator_id,
          html: (r: PayoutTableRow) => (
            <OrgLink s={s} to={`/dashboard/creators/${encodeURIComponent(r.creator_id)}`}>
              {r.creator_name ?? r.creator_id}
            </OrgLink>
          ),
        },
      ]
    : [];
  return {
    id: 'payout-table',
    caption: 'Payouts',
    spec: PAYOUT_TABLE,
    file: 'payouts.csv',
    rowKey: (r) => r.id,
    columns: [
      timeColumn('Run at', (r) => r.created_at, 'created_at'),
      {
        label: 'Run',
        sort: 'run_id',
        text: (r) => r.run_id,
        html: (r) => (
          <OrgLink s={s} to={`/dashboard/wallet/payouts/${encodeURIComponent(r.run_id)}`}>
            {r.run_id}
          </OrgLink>
        ),
      },
      ...creator,
      { label: 'Commissions', sort: 'commission_count', text: (r) => r.commission_count },
      { label: 'Bonus awards (USD)', sort: 'awards_micros', text: (r) => usd(r.awards_micros) },
      { label: 'Gross (USD)', sort: 'gross_micros', text: (r) => usd(r.gross_micros) },
      { label: 'Platform fees (USD)', sort: 'fees_micros', text: (r) => usd(r.fees_micros) },
      { label: 'Clawbacks netted (USD)', sort: 'clawbacks_netted_micros', text: (r) => usd(r.clawbacks_netted_micros) },
      { label: 'Net to creator (USD)', sort: 'net_micros', text: (r) => usd(r.net_micros) },
      // lib/payout-status.ts: a returned payout reads "returned: nothing was paid (why)", never paid.
      {
        label: 'Status',
        text: (r) => payoutStatus(r).text,
        html: (r) => <StateText state={payoutStatus(r).status} text={payoutStatus(r).text} />,
      },
    ],
  };
}

export async function ledgerPage(ctx: AppContext): Promise<void> {
  const s = await signedIn(ctx);
  if (!s) return;
  if (!s.orgId) return dashboardPage(ctx, s, 200, 'Ledger', <p>You belong to no organization.</p>);
  const { view, csv, window } = tableRequest(ctx, LEDGER_TABLE);
  const page = await pageLedgerEntries(ctx.deps.db, s.orgId, view, window);
  if (csv) return sendTableCsv(ctx, LEDGER, page);
  dashboardPage(
    ctx,
    s,
    200,
    'Ledger',
    <>
      <p class="muted">
        Every change of the wallet, with the balance and reservation each entry left behind.{' '}
        <OrgLink s={s} to="/dashboard/wallet">
          Back to the wallet
        </OrgLink>
      </p>
      <DataTable s={s} def={LEDGER} page={page} view={view} path="/dashboard/wallet/ledger" />
    </>,
  );
}

export async function payoutsPage(ctx: AppContext): Promise<void> {
  const s = await signedIn(ctx);
  if (!s) return;
  if (!s.orgId) return dashboardPage(ctx, s, 200, 'Payouts', <p>You belong to no organization.</p>);
  const { view, csv, window } = tableRequest(ctx, PAYOUT_TABLE);
  const def = payoutTable(s);
  const page = await pagePayouts(ctx.deps.db, s.orgId, {}, view, window);
  if (csv) return sendTableCsv(ctx, def, page);
  dashboardPage(
    ctx,
    s,
    200,
    'Payouts',
    <>
      <p class="muted">
        One line per creator per payout run. Runs are started from the{' '}
        <OrgLink s={s} to="/dashboard/wallet#payouts">
          wallet page
        </OrgLink>
        .
      </p>
      <DataTable s={s} def={def} page={page} view={view} path="/dashboard/wallet/payouts" />
    </>,
  );
}
