// GET /dashboard/creator/campaigns/{campaign_id}: one joined campaign as its creator sees it (docs/creator-portal.md
// "What a creator sees"): code, referral link and its QR code, store offer codes with their redemption links and QR
// codes (offer-codes.tsx), production clicks, installs and conversions, every
// commission with its state and reason, bonus rules with progress and awards, the featured marketing assets, and the
// payouts of the campaign's organization with their statements. A campaign the creator did not join is 404.
// GET .../qr.svg is the QR code as a file.
import { EmptyState, FigureCards, StatePill, StateText, type KeyFigure } from '../view-kit/visual.js';
import { describeBasis } from '../../lib/commission-basis.js';
import { listAssets } from '../../db/assets.js';
import { bankPayoutsOfCreator } from '../../db/creator-bank-payouts.js';
import { milestoneProgress } from '../../db/bonus-awards.js';
import {
  findCreatorCampaign,
  listCreatorBonusRules,
  listCreatorCommissions,
  listCreatorPayouts,
  type CreatorCampaign,
} from '../../db/creator-portal.js';
import { listCampaignAffiliates } from '../../db/invitations.js';
import { commissionState, STATE_LABEL } from '../../lib/creator-commission-state.js';
import { NotFoundError } from '../../errors/http-errors.js';
import { safeUrl } from '../view-kit/html.js';
import { LocalTime } from '../view-kit/ui.js';
import { formatUsd } from '../../lib/money.js';
import { creatorLinkUrl } from '../../lib/referral-link.js';
import { PORTAL_PATH } from '../auth/authenticate.js';
import { storedPayoutAccount } from '../../actions/payout-accounts.js';
import { payoutStatus } from '../../lib/payout-status.js';
import type { AppContext } from '../context.js';
import { signedInCreator, type CreatorSignedIn } from './auth.js';
import { campaignPath } from './home-page.js';
import { portalPage, ScrollTable } from './layout.js';
import { PayoutAccountPanel } from './payout-account.js';
import { OfferCodes } from './offer-codes.js';
import { QrCode, qrSvgFile } from './qr.js';
import { statementPath } from './statements.js';

const when = (d: Date | string | null) => <LocalTime at={d} />;
const referralLink = (ctx: AppContext, c: CreatorCampaign) => creatorLinkUrl(ctx.deps.config.BASE_URL, c.app_slug, c.code);

async function campaignOf(ctx: AppContext, s: CreatorSignedIn): Promise<CreatorCampaign> {
  const campaign = await findCreatorCampaign(ctx.deps.db, s.creator.id, ctx.params.campaign_id as string);
  if (!campaign) throw new NotFoundError('No such campaign among yours.');
  return campaign;
}

async function Numbers({ ctx, c, creatorId }: { ctx: AppContext; c: CreatorCampaign; creatorId: string }) {
  const mine = (await listCampaignAffiliates(ctx.deps.db, c.campaign_id)).find((a) => a.creator_id === creatorId);
  const figures: KeyFigure[] = [
    { id: 'clicks', label: 'Clicks on your link', value: String(mine?.clicks ?? 0) },
    { id: 'installs', label: 'Installs', value: String(mine?.installs ?? 0) },
    { id: 'conversions', label: 'Conversions', value: String(mine?.production_conversions ?? 0) },
  ];
  return (
    <section id="numbers" aria-label="Production numbers of your code">
      <FigureCards figures={figures} label="Production numbers of your code" />
    </section>
  );
}

async function Commissions({ ctx, c, creatorId }: { ctx: AppContext; c: CreatorCampaign; creatorId: string }) {
  const lines = await listCreatorCommissions(ctx.deps.db, creatorId, c.campaign_id);
  if (lines.length === 0)
    return (
      <EmptyState id="commissions-empty" title="No commission yet.">
        Share your link or code below: a commission appears here at the moment of a purchase through it.
      </EmptyState>
    );
  // The reason sits under the state, so a phone shows both without scrolling sideways.
  return (
    <ScrollTable id="commissions" label="Commissions" columns={['Purchase', 'Amount', 'State and why']}>
      {lines.map((l) => {
        const { state, reason } = commissionState(l);
        return (
          <tr data-state={state}>
            <td>
              {l.product_id ?? 'Purchase'}
              <br />
              <span class="muted">{when(l.created_at)}</span>
            </td>
            <td>
              {formatUsd(l.commission_micros)}
              <br />
              <span class="muted basis">{describeBasis(l.basis)}</span>
            </td>
            <td class="why">
              <StatePill state={state} label={STATE_LABEL[state]} class="commission-state" />
              <br />
              <span class="muted">{reason}</span>
              {l.payout_id ? (
                <>
                  {' '}
                  <a href={safeUrl(statementPath(l.payout_id))}>Statement</a>
                </>
              ) : null}
            </td>
          </tr>
        );
      })}
    </ScrollTable>
  );
}

async function Bonuses({ ctx, c, creatorId }: { ctx: AppContext; c: CreatorCampaign; creatorId: string }) {
  const [rules, progress] = await Promise.all([
    listCreatorBonusRules(ctx.deps.db, creatorId, c.campaign_id),
    milestoneProgress(ctx.deps.db, c.campaign_id, creatorId),
  ]);
  if (rules.length === 0) return <p class="muted">This campaign has no bonus rules.</p>;
  return (
    <ScrollTable id="bonuses" label="Bonuses" columns={['Bonus', 'Reward', 'Your progress', 'Award']}>
      {rules.map((r) => (
        <tr>
          <td>{r.name}</td>
          <td>
            {formatUsd(r.bonus_micros)} at {r.threshold_conversions} conversions
          </td>
          <td>
            <progress
              max={r.threshold_conversions}
              value={Math.min(progress, r.threshold_conversions)}
              aria-label={`${r.name} progress`}
            ></progress>{' '}
            {Math.min(progress, r.threshold_conversions)} of {r.threshold_conversions}
          </td>
          <td>
            {r.award_status ? (
              <>
                <StatePill state={r.award_status} /> ({formatUsd(r.award_micros ?? 0)})
              </>
            ) : (
              'not reached yet'
            )}
          </td>
        </tr>
      ))}
    </ScrollTable>
  );
}

async function Assets({ ctx, c }: { ctx: AppContext; c: CreatorCampaign }) {
  const featured = (await listAssets(ctx.deps.db, c.app_id)).filter((a) => a.featured === true);
  if (featured.length === 0) return <p class="muted">No featured marketing material yet.</p>;
  return (
    <ul id="assets">
      {featured.map((a) => {
        const name = String(a.title ?? a.category ?? a.type);
        const href = a.storage_key ? `${PORTAL_PATH}/assets/${encodeURIComponent(a.id)}/file` : a.url;
        return (
          <li>
            <a href={safeUrl(href)} download={a.storage_key ? '' : undefined}>
              {name}
            </a>
            {a.description ? (
              <>
                {' '}
                <span class="muted">{typeof a.description === 'string' ? a.description : ''}</span>
              </>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

async function Payouts({ ctx, c, creatorId, s }: { ctx: AppContext; c: CreatorCampaign; creatorId: string; s: CreatorSignedIn }) {
  const [payouts, account, bank] = await Promise.all([
    listCreatorPayouts(ctx.deps.db, creatorId, c.org_id),
    storedPayoutAccount(ctx.deps, creatorId),
    bankPayoutsOfCreator(ctx.deps.db, creatorId),
  ]);
  return (
    <>
      <PayoutAccountPanel ctx={ctx} s={s} account={account} bank={bank} />
      {payouts.length === 0 ? (
        <p class="muted">No payout from {c.org_name} yet.</p>
      ) : (
        <ScrollTable
          id="payouts"
          label="Payouts"
          caption={`Payouts from ${c.org_name} (all its campaigns)`}
          columns={['Date (UTC)', 'Commissions', 'Bonus awards', 'Clawbacks netted', 'Net', 'Status', 'Statement']}
        >
          {payouts.map((p) => (
            <tr>
              <td>{when(p.created_at)}</td>
              <td>{p.commission_count}</td>
              <td>{formatUsd(Number(p.awards_micros))}</td>
              <td>{formatUsd(Number(p.clawbacks_netted_micros))}</td>
              <td>{formatUsd(Number(p.net_micros))}</td>
              <td data-status={payoutStatus(p).status}>
                <StateText state={payoutStatus(p).status} text={payoutStatus(p).text} />
              </td>
              <td>
                <a href={safeUrl(statementPath(p.id))}>Statement</a>
              </td>
            </tr>
          ))}
        </ScrollTable>
      )}
    </>
  );
}

export async function campaignPage(ctx: AppContext): Promise<void> {
  const s = await signedInCreator(ctx);
  if (!s) return;
  const c = await campaignOf(ctx, s);
  const link = referralLink(ctx, c);
  const id = s.creator.id;
  const sections = await Promise.all([
    Numbers({ ctx, c, creatorId: id }),
    Commissions({ ctx, c, creatorId: id }),
    Bonuses({ ctx, c, creatorId: id }),
    Assets({ ctx, c }),
    Payouts({ ctx, c, creatorId: id, s }),
    OfferCodes({ ctx, campaignId: c.campaign_id, creatorId: id }),
  ]);
  const [numbers, commissions, bonuses, assets, payouts, offerCodes] = sections;
  portalPage(
    ctx,
    s,
    200,
    c.campaign_name,
    <>
      <p class="muted">
        {c.app_name} · {c.org_name} · {Number(c.commission_percentage)}% commission · held {c.holding_period_days} day
        {c.holding_period_days === 1 ? '' : 's'} before payable
      </p>
      <h2>Your code and link</h2>
      <p class="code" id="code">
        {c.code}
      </p>
      <p>
        Referral link:{' '}
        <a id="referral-link" href={safeUrl(link)}>
          {link}
        </a>
      </p>
      <QrCode text={link} label={`QR code of your referral link ${link}`} />
      <p>
        <a href={safeUrl(`${campaignPath(c.campaign_id)}/qr.svg`)} download="">
          Download the QR code (SVG)
        </a>
      </p>
      <h2>Your store offer codes</h2>
      {offerCodes}
      <h2>Results</h2>
      {numbers}
      <h2>Commissions</h2>
      {commissions}
      <h2>Bonuses</h2>
      {bonuses}
      <h2>Marketing material</h2>
      {assets}
      <h2>Payouts</h2>
      {payouts}
    </>,
  );
}

export async function campaignQr(ctx: AppContext): Promise<void> {
  const s = await signedInCreator(ctx);
  if (!s) return;
  const c = await campaignOf(ctx, s);
  const link = referralLink(ctx, c);
  // The code is A-Z 0-9 _ - only (creator_codes_code_check), so it is safe in the file name.
  ctx.set({
    'Content-Disposition': `attachment; filename="qr-${c.code}.svg"`,
    'Cache-Control': 'private, no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  ctx.type = 'image/svg+xml';
  ctx.body = qrSvgFile(link, `QR code of ${link}`);
}
