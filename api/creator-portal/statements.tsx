// A payout's statement for its creator (docs/creator-portal.md "Statements"): GET /dashboard/creator/payouts/{id}
// lists what the payout paid (commissions, bonus awards) and what it netted (clawbacks), and .../statement.csv is
// the same lines as CSV through lib/csv.ts (the one owner of the formula-injection rule). Anyone else's payout is 404.
import { StateText } from '../view-kit/visual.js';
import { findCreatorStatement, type CreatorStatement } from '../../db/creator-portal.js';
import { csvHeaders, toCsv, type CsvCell } from '../../lib/csv.js';
import { NotFoundError } from '../../errors/http-errors.js';
import { csvUsd, formatUsd } from '../../lib/money.js';
import { describeBasis } from '../../lib/commission-basis.js';
import { payoutStatus, type PayoutStatus } from '../../lib/payout-status.js';
import { safeUrl } from '../view-kit/html.js';
import { PORTAL_PATH } from '../auth/authenticate.js';
import type { AppContext } from '../context.js';
import { signedInCreator, type CreatorSignedIn } from './auth.js';
import { formatDate } from '../../lib/dates.js';
import { LocalTime } from '../view-kit/ui.js';
import { portalPage, ScrollTable } from './layout.js';

export const statementPath = (payoutId: string) => `${PORTAL_PATH}/payouts/${encodeURIComponent(payoutId)}`;
/** The CSV's date: the UTC day, machine-readable (the page shows it in the viewer's time zone). */
const day = (d: Date | string) => new Date(d).toISOString().slice(0, 10);

async function statementOf(ctx: AppContext, s: CreatorSignedIn): Promise<CreatorStatement> {
  const found = await findCreatorStatement(ctx.deps.db, s.creator.id, ctx.params.payout_id as string);
  if (!found) throw new NotFoundError('No such payout among yours.');
  return found;
}

interface Line {
  kind: 'Commission' | 'Bonus award' | 'Clawback';
  date: Date | string;
  campaign: string;
  what: string;
  micros: number;
  /** A commission's basis in words (lib/commission-basis.ts); empty for awards and clawbacks. */
  basis: string;
}

/** Every line of the statement, in the order shown and exported; clawbacks are negative. */
function lines(st: CreatorStatement): Line[] {
  return [
    ...st.commissions.map((c): Line => ({
      kind: 'Commission',
      date: c.created_at,
      campaign: c.campaign_name,
      what: c.product_id ?? 'Purchase',
      micros: c.commission_micros,
      basis: describeBasis(c.basis),
    })),
    ...st.awards.map((a): Line => ({
      kind: 'Bonus award',
      date: st.payout.created_at,
      campaign: a.campaign_name,
      what: `${a.threshold_conversions} conversions reached`,
      micros: a.amount_micros,
      basis: '',
    })),
    ...st.clawbacks.map((c): Line => ({
      kind: 'Clawback',
      date: c.refunded_at,
      campaign: c.campaign_name,
      what: `${c.product_id ?? 'Purchase'} refunded after release`,
      micros: -c.micros,
      basis: '',
    })),
  ];
}

/** The net's label by the payout's status: only a payout whose money moved says "paid". */
const NET_LABEL: Record<PayoutStatus['status'], string> = {
  sending: 'Net being sent to you',
  paid: 'Net paid to you',
  settled: 'Net paid to you',
  returned: 'Net (returned: not paid)',
};

export async function statementPage(ctx: AppContext): Promise<void> {
  const s = await signedInCreator(ctx);
  if (!s) return;
  const st = await statementOf(ctx, s);
  const p = st.payout;
  const status = payoutStatus(p);
  portalPage(
    ctx,
    s,
    200,
    `Payout statement ${formatDate(p.created_at, false)}`,
    <>
      <p>
        From {st.payout.org_name}, payout <code>{p.id}</code>.
      </p>
      {status.status === 'returned' ? (
        <p class="notice" role="status" id="statement-returned">
          This payout was returned: nothing was paid ({status.reason}). Its commissions and bonus awards are payable again and go out with a
          later payout.
        </p>
      ) : null}
      <table class="figures" id="statement-totals">
        <tbody>
          <tr>
            <th scope="row">Commissions ({p.commission_count})</th>
            <td>{formatUsd(Number(p.gross_micros) - Number(p.awards_micros))}</td>
          </tr>
          <tr>
            <th scope="row">Bonus awards ({p.award_count})</th>
            <td>{formatUsd(Number(p.awards_micros))}</td>
          </tr>
          <tr>
            <th scope="row">Clawbacks netted</th>
            <td>
              {/* a minus only when something was netted: "-$0.00" reads as if money was taken */}
              {Number(p.clawbacks_netted_micros) > 0 ? '-' : ''}
              {formatUsd(Number(p.clawbacks_netted_micros))}
            </td>
          </tr>
          <tr>
            <th scope="row">{NET_LABEL[status.status]}</th>
            <td id="statement-net">{formatUsd(Number(p.net_micros))}</td>
          </tr>
          <tr>
            <th scope="row">Status</th>
            <td id="statement-status" data-status={status.status}>
              <StateText state={status.status} text={status.text} />
            </td>
          </tr>
        </tbody>
      </table>
      <ScrollTable id="statement-lines" label="Statement lines" columns={['Type', 'Date', 'Campaign', 'What', 'Amount', 'Basis']}>
        {lines(st).map((l) => (
          <tr data-kind={l.kind}>
            <td>{l.kind}</td>
            <td>
              <LocalTime at={l.date} date />
            </td>
            <td>{l.campaign}</td>
            <td>{l.what}</td>
            <td>{l.micros < 0 ? `-${formatUsd(-l.micros)}` : formatUsd(l.micros)}</td>
            <td class="basis">{l.basis}</td>
          </tr>
        ))}
      </ScrollTable>
      <p>
        <a href={safeUrl(`${statementPath(p.id)}/statement.csv`)} download="">
          Download as CSV
        </a>
      </p>
    </>,
  );
}

export async function statementCsv(ctx: AppContext): Promise<void> {
  const s = await signedInCreator(ctx);
  if (!s) return;
  const st = await statementOf(ctx, s);
  const status = payoutStatus(st.payout);
  // Amounts stay positive with their effect beside them: a leading minus would be escaped as a formula (lib/csv.ts).
  // A returned payout's lines were never paid: their effect says returned.
  const rows: CsvCell[][] = lines(st).map((l) => [
    l.kind,
    day(l.date),
    l.campaign,
    l.what,
    csvUsd(Math.abs(l.micros)),
    l.micros < 0 ? 'deducted' : status.status === 'returned' ? 'returned' : 'paid',
    l.basis,
  ]);
  rows.push([
    status.status === 'returned' ? 'Net not paid' : 'Net paid',
    day(st.payout.created_at),
    st.payout.org_name,
    st.payout.id,
    csvUsd(Number(st.payout.net_micros)),
    'total',
    '',
  ]);
  rows.push(['Status', day(st.payout.returned_at ?? st.payout.created_at), st.payout.org_name, status.text, '', status.status, '']);
  ctx.set({ ...csvHeaders(`statement-${st.payout.id}.csv`), 'Cache-Control': 'private, no-store' });
  ctx.body = toCsv(['type', 'date', 'campaign', 'description', 'amount_usd', 'effect', 'basis'], rows);
}
