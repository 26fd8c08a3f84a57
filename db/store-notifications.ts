// Store server notifications, per app and source (schema 0040): when the last one was taken in, the TEST
// notification asked for and received, how far the store's notification history was read; and the user a
// notified purchase names by its account token. This module owns store_notification_states, read here and written
// in db/store-notifications-writes.ts.
import type { Knex } from 'knex';
import { STORE_VERIFIER } from '../lib/validation-providers.js';

/** Who sent a notification: the raw_intake source (db/raw-intake.ts) and the state row's key. */
export const NOTIFICATION_SOURCES = { ios: 'app_store_notification', android: 'play_rtdn' } as const;
export type NotificationSource = (typeof NOTIFICATION_SOURCES)[keyof typeof NOTIFICATION_SOURCES];

export interface NotificationState {
  source: string;
  last_received_at: Date | null;
  test_requested_at: Date | null;
  test_received_at: Date | null;
  history_synced_until: Date | null;
  history_error: string | null;
}

const TABLE = 'store_notification_states';

async function notificationStates(db: Knex, appId: string): Promise<NotificationState[]> {
  return db(TABLE)
    .where('app_id', appId)
    .select<NotificationState[]>(
      'source',
      'last_received_at',
      'test_requested_at',
      'test_received_at',
      'history_synced_until',
      'history_error',
    );
}

export async function notificationState(db: Knex, appId: string, source: string): Promise<NotificationState | undefined> {
  return (await notificationStates(db, appId)).find((s) => s.source === source);
}

/**
 * The one user binding of a notified purchase, both stores: the app user whose id is `token` (preferred) or whose
 * account token it is (app_account_token(), schema 0040: the SDK's derivation, packages/sdk/src/ids.ts accountToken)
 * — the App Store's appAccountToken, Google Play's obfuscatedExternalAccountId. `among`: the App Store binds users
 * who identified or have an attribution, Google Play only attributed ones (identify's click backfill or a code
 * entered), as each was released (docs/store-direct.md). Undefined when none matches.
 */
export async function findUserByAccountToken(
  db: Knex,
  appId: string,
  token: string,
  among: 'attributed' | 'attributed_or_identified',
): Promise<string | undefined> {
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(token) ? token.toLowerCase() : null;
  // An attributed user before one who only identified; within a table, the user whose id it is.
  const match = (table: string, rank: number) =>
    db(table)
      .where('app_id', appId)
      .where((w) => {
        w.where('app_user_id', token);
        if (uuid) w.orWhereRaw('app_account_token(app_user_id) = ?::uuid', [uuid]);
      })
      .select('app_user_id', db.raw('?::int as rank', [rank]));
  const tables = among === 'attributed' ? [match('user_attributions', 0)] : [match('user_attributions', 0), match('identifies', 1)];
  const row = await db
    .select('app_user_id')
    .from(db.unionAll(tables, true).as('u'))
    .orderBy('rank')
    .orderByRaw('app_user_id = ? desc', [token])
    .first<{ app_user_id: string } | undefined>();
  return row?.app_user_id;
}

/** Apps whose iOS platform is store-direct (each has its hourly App Store history catch-up). */
export async function appsOnAppStore(db: Knex): Promise<string[]> {
  return db('apps').where('ios_validation_provider', STORE_VERIFIER.ios).orderBy('id').pluck<string[]>('id');
}

/** What validation-status and the checklist show of a platform's notifications. */
export interface NotificationWiring {
  wired: boolean;
  last_received_at: Date | null;
  test_requested_at: Date | null;
  test_received_at: Date | null;
}

/** Per store platform: whether its notifications reached us (any, a TEST included) and when the last one did. */
export async function notificationWiring(db: Knex, appId: string): Promise<Record<keyof typeof NOTIFICATION_SOURCES, NotificationWiring>> {
  const states = await notificationStates(db, appId);
  const of = (source: string): NotificationWiring => {
    const s = states.find((x) => x.source === source);
    return {
      wired: Boolean(s?.last_received_at ?? s?.test_received_at),
      last_received_at: s?.last_received_at ?? null,
      test_requested_at: s?.test_requested_at ?? null,
      test_received_at: s?.test_received_at ?? null,
    };
  };
  return { ios: of(NOTIFICATION_SOURCES.ios), android: of(NOTIFICATION_SOURCES.android) };
}
