// A store server notification taken in (Apple's App Store Server Notification, Google Play's real-time developer
// notification): kept in raw_intake once per app, source and external id (a redelivery finds its row, its first
// payload stays), and the app's notification state says one arrived (validation-status's "wired / last received",
// a TEST one too). Called by api/webhooks/google-play.ts and workflow-clients/apple-notification-intake.ts, which
// then start the store's notification workflow for a row not normalised yet.
import type { Knex } from 'knex';
import { receiveRawItem, type RawItem } from '../db/raw-intake.js';
import { recordNotificationTakenIn } from '../db/store-notifications-writes.js';
import type { RawIntakeRow } from '../schema/types.js';

export async function takeInStoreNotification(
  deps: { db: Knex },
  input: RawItem & { test: boolean },
): Promise<{ row: RawIntakeRow; inserted: boolean }> {
  const { test, ...item } = input;
  const received = await receiveRawItem(deps.db, item);
  await recordNotificationTakenIn(deps.db, item.appId, item.source, { test });
  return received;
}
