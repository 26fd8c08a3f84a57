// The creator's store offer codes in one campaign (CONTRACT.md "Creator offer codes"), on the portal's campaign
// page: for each active code the store, what to type and the redemption link with its QR code (qr.tsx), so the creator
// can share it anywhere; retired codes are listed as such (past purchases stay theirs). A code without a custom code
// (an offer the developer hands out another way) has no link: the section says so.
import { listCampaignCreatorOfferCodes } from '../../db/offer-codes.js';
import { offerRedeemUrl } from '../../lib/offer-codes.js';
import type { AppContext } from '../context.js';
import { safeUrl } from '../view-kit/html.js';
import { QrCode } from './qr.js';

const STORE = { ios: 'App Store', android: 'Google Play' } as const;

export async function OfferCodes({ ctx, campaignId, creatorId }: { ctx: AppContext; campaignId: string; creatorId: string }) {
  const rows = await listCampaignCreatorOfferCodes(ctx.deps.db, campaignId, creatorId);
  if (rows.length === 0) return <p class="muted">No store offer code yet: the developer adds one when they run store offers.</p>;
  return (
    <ul id="offer-codes" class="offer-codes">
      {rows.map((row) => {
        const url = row.status === 'active' ? offerRedeemUrl(row, row.app_apple_id) : null;
        const typed = row.custom_code ?? row.value;
        return (
          <li data-offer-code={row.id} data-status={row.status}>
            <p>
              {STORE[row.platform]}: <span class="code">{typed}</span>{' '}
              {row.status === 'retired' ? <span class="muted">(retired: no longer credits new purchases)</span> : null}
            </p>
            {url ? (
              <>
                <p>
                  Redemption link:{' '}
                  <a class="redeem-link" href={safeUrl(url)}>
                    {url}
                  </a>
                </p>
                <QrCode text={url} label={`QR code of your ${STORE[row.platform]} offer link ${url}`} />
              </>
            ) : row.status === 'active' ? (
              <p class="muted">No redemption link for this offer: ask the developer how people redeem it.</p>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
