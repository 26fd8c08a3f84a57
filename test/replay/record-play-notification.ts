// The Google Play notification workflow for `npm run replay:record`: an Android store-direct app (a service account
// the Google stub accepts, stored as the activation stores it). `play-notification-subscription`: a renewal notified
// for a subscription never recorded, whose buyer binds to no one: subscriptionsv2 read, the wait for the app's report
// (a timer; none comes), the price, the hand-off, the row marked. `play-notification-voided`: a voided order we never
// recorded, read from the voided list and kept as ignored.
import type { Client } from '@temporalio/client';
import type { Knex } from 'knex';
import { randomUUID } from 'node:crypto';
import { receiveRawItem } from '../../db/raw-intake.js';
import type { Config } from '../../runtime/config.js';
import { startPlayNotification } from '../../workflow-clients/store-notification.js';
import { playNotificationWorkflowId } from '../../workflows/store-notification-messages.js';
import { androidStoreDirect, REPLAY_PACKAGE } from './android-store.js';
import { historyJson } from './history-json.js';

export interface PlayNotificationRecording {
  client: Client;
  taskQueue: string;
  db: Knex;
  config: Config;
  appId: string;
  address: string;
}

export async function recordPlayNotifications(r: PlayNotificationRecording): Promise<{ name: string; json: string; events: number }[]> {
  const google = await androidStoreDirect(r);
  try {
    const packageName = REPLAY_PACKAGE;

    const token = `replay-${randomUUID()}`;
    google.subscriptions.set(token, {
      subscriptionState: 'SUBSCRIPTION_STATE_ACTIVE',
      startTime: new Date(Date.now() - 40 * 86_400_000).toISOString(),
      externalAccountIdentifiers: { obfuscatedExternalAccountId: 'nobody' },
      lineItems: [
        {
          productId: 'pro_monthly',
          latestSuccessfulOrderId: 'GPA.1111-1111-1111-11111..0',
          autoRenewingPlan: { recurringPrice: { currencyCode: 'USD', units: '9', nanos: 990_000_000 } },
        },
      ],
    });
    google.voided.push({
      purchaseToken: token,
      orderId: 'GPA.2222-2222-2222-22222',
      voidedTimeMillis: String(Date.now() - 60_000),
      voidedSource: 0,
      voidedReason: 1,
      subscription: true,
    });
    const notifications = {
      'play-notification-subscription': {
        subscriptionNotification: { version: '1.0', notificationType: 2, purchaseToken: token, subscriptionId: 'pro_monthly' },
      },
      'play-notification-voided': {
        voidedPurchaseNotification: { purchaseToken: token, orderId: 'GPA.2222-2222-2222-22222', productType: 1, refundType: 1 },
      },
    };
    const recorded = [];
    for (const [name, notification] of Object.entries(notifications)) {
      const messageId = randomUUID();
      const data = Buffer.from(
        JSON.stringify({ version: '1.0', packageName, eventTimeMillis: String(Date.now()), ...notification }),
      ).toString('base64');
      await receiveRawItem(r.db, {
        appId: r.appId,
        source: 'play_rtdn',
        externalId: messageId,
        payload: { message: { data, messageId }, subscription: 'projects/p/subscriptions/s' },
      });
      await startPlayNotification(r.client, r.taskQueue, { appId: r.appId, messageId, reportWaitMs: 600 });
      const workflowId = playNotificationWorkflowId(r.appId, messageId);
      await r.client.workflow.getHandle(workflowId).result();
      recorded.push({ name, ...(await historyJson(r.address, workflowId)) });
    }
    return recorded;
  } finally {
    await google.close();
  }
}
