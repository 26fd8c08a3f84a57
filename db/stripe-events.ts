// Stripe events already handled, per endpoint (stripe_events, migration 0037). Stripe delivers at least once and
// redelivers the same event id; a handled id answers again without doing anything. Marked after the handling
// succeeded, so an event whose handling failed (503) is handled when Stripe delivers it again; the handlers are
// idempotent themselves, so two deliveries racing change nothing twice.
import type { Knex } from 'knex';

export type StripeEndpoint = 'platform' | 'connect';

export async function wasStripeEventHandled(db: Knex, endpoint: StripeEndpoint, eventId: string): Promise<boolean> {
  return Boolean(await db('stripe_events').where({ endpoint, id: eventId }).first('id'));
}

export async function markStripeEventHandled(db: Knex, endpoint: StripeEndpoint, eventId: string, type: string): Promise<void> {
  await db('stripe_events').insert({ endpoint, id: eventId, type }).onConflict(['endpoint', 'id']).ignore();
}
