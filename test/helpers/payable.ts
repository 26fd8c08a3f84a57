// A payable commission for dashboard tests: a purchase through the subscription provider's webhook (the real worker
// earns it) on a campaign whose holding period is one (short: HOLDING_PERIOD_DAY_MS) day, then the conversion
// workflow's timer releases it. The harness must run with the worker and HOLDING_PERIOD_DAY_MS set.
import type { Knex } from 'knex';
import { sendWebhook, subscription } from './subprovider-events.js';
import { waitFor } from './svc-processes.js';

export interface PayableAccount {
  org_id: string;
  app_id: string;
  campaign_id: string;
  webhook_secret: string;
  creator_code: string;
}

export async function makePayableCommission(
  db: Knex,
  baseUrl: string,
  acct: PayableAccount,
  tag: string,
  /** Fields of the purchase event (e.g. `price`), and the subscription it belongs to (to refund it later). */
  purchase: { overrides?: Record<string, unknown>; sub?: ReturnType<typeof subscription> } = {},
): Promise<{ id: string; creator_id: string; commission_micros: number; platform_fee_micros: number }> {
  await db('campaigns').where('id', acct.campaign_id).update({ holding_period_days: 1 });
  const sub = purchase.sub ?? subscription(tag, acct.creator_code);
  const sent = await sendWebhook(baseUrl, acct.app_id, acct.webhook_secret, sub('initial_purchase', purchase.overrides));
  if (sent.status !== 200 || sent.body.error) throw new Error(`webhook refused: ${sent.status} ${sent.text}`);
  let commission: { id: string; status: string; creator_id: string; commission_micros: number; platform_fee_micros: number } | undefined;
  await waitFor(
    async () => {
      commission = await db('commissions').where({ org_id: acct.org_id, kind: 'earn' }).orderBy('created_at', 'desc').first();
      return commission?.status === 'payable';
    },
    'the commission to become payable',
    30_000,
  );
  return commission!;
}
