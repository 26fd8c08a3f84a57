// The pipeline side of the review tests (test/integration/commission-review*.test.ts): a provider webhook sent and
// acknowledged, the earn of a user's conversion, its review, a purchase the creator made with their own email.
import type { ExecutionContext } from 'ava';
import type { Knex } from 'knex';
import { conversionsOfUser } from './conversions.js';
import { sendWebhook, type ProviderBody } from './subprovider-events.js';

/** A reviewer as decisions name one in the audit log. */
export const REVIEWER = { actorType: 'user' as const, actorId: 'usr_reviewer', requestId: null, ip: null };

export function reviewPipeline(h: () => { baseUrl: string; db: Knex }, seed: { app_id: string; webhook_secret: string }) {
  return {
    send: async (t: ExecutionContext, body: ProviderBody) => {
      const res = await sendWebhook(h().baseUrl, seed.app_id, seed.webhook_secret, body);
      t.is(res.status, 200, res.text);
      return res;
    },
    earnOf: async (user: string) => {
      const [conversion] = await conversionsOfUser(h().db, seed.app_id, user);
      return h().db('commissions').where({ conversion_id: conversion.id, kind: 'earn' }).first();
    },
    reviewsOf: (commissionId: string) => h().db('commission_reviews').where('commission_id', commissionId).select('*'),
  };
}

/** The purchase's provider `$email` attribute set to `email`. */
export const withEmail = (body: ProviderBody, email: string): ProviderBody => {
  body.event.subscriber_attributes = { ...body.event.subscriber_attributes, $email: { value: email, updated_at_ms: 1 } };
  return body;
};
