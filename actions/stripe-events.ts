// Stripe events handled once per endpoint (db/stripe-events.ts says why: Stripe delivers at least once): an event id
// handled before answers `duplicate` without doing anything; otherwise `handle` runs and the id is marked handled
// after it succeeded, so a handling that failed (503) runs again at Stripe's next delivery. The Connect webhook
// (api/webhooks/stripe-connect.ts) and the platform's transfer events (api/webhooks/stripe-transfers.ts) use it.
import type { Knex } from 'knex';
import { markStripeEventHandled, wasStripeEventHandled, type StripeEndpoint } from '../db/stripe-events.js';

export async function handleStripeEventOnce<T>(
  deps: { db: Knex },
  event: { endpoint: StripeEndpoint; id: string; type: string },
  handle: () => Promise<T>,
): Promise<{ duplicate: true } | { duplicate: false; result: T }> {
  if (await wasStripeEventHandled(deps.db, event.endpoint, event.id)) return { duplicate: true };
  const result = await handle();
  await markStripeEventHandled(deps.db, event.endpoint, event.id, event.type);
  return { duplicate: false, result };
}
