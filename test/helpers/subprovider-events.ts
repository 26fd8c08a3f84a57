// Realistic subscription-provider webhook payloads (test/fixtures/subprovider/*.json) with per-test overrides,
// and a sender that posts them the way the provider does.
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { request, type JsonResponse } from './http.js';

export type FixtureName =
  | 'initial_purchase'
  | 'initial_purchase_trial'
  | 'renewal'
  | 'renewal_trial_conversion'
  | 'cancellation'
  | 'uncancellation'
  | 'expiration'
  | 'product_change'
  | 'billing_issue'
  | 'refund_customer_support'
  | 'refund'
  | 'refund_reversed'
  | 'non_renewing_purchase'
  | 'test'
  | 'sandbox_initial_purchase'
  | 'promotional'
  | 'subscription_paused'
  | 'transfer';

export interface ProviderBody {
  api_version: string;
  event: Record<string, any>;
}

export function providerEvent(name: FixtureName, overrides: Record<string, unknown> = {}, code?: string | null): ProviderBody {
  const body = JSON.parse(readFileSync(new URL(`../fixtures/subprovider/${name}.json`, import.meta.url), 'utf8')) as ProviderBody;
  Object.assign(body.event, overrides);
  if (code === null) delete body.event.subscriber_attributes;
  else if (code !== undefined) body.event.subscriber_attributes.svc_code.value = code;
  return body;
}

/** A fresh subscription for one user: unique transaction ids and event ids, so tests never collide. */
export function subscription(appUserId: string, code: string | null) {
  const original = `1000${Math.floor(Math.random() * 1e12)}`;
  let clock = Date.UTC(2026, 10, 1);
  return (name: FixtureName, overrides: Record<string, unknown> = {}) => {
    clock += 86_400_000;
    const isFirst = name.startsWith('initial_purchase');
    return providerEvent(
      name,
      {
        app_user_id: appUserId,
        original_app_user_id: appUserId,
        original_transaction_id: original,
        transaction_id: isFirst ? original : `${original}${Math.floor(clock / 1000)}`,
        id: randomUUID(),
        event_timestamp_ms: clock,
        ...overrides,
      },
      code,
    );
  };
}

export function sendWebhook(
  baseUrl: string,
  appId: string | null,
  secret: string | undefined,
  body: unknown,
  rawAuth?: string,
): Promise<JsonResponse> {
  const headers: Record<string, string> = {};
  if (rawAuth !== undefined) headers.authorization = rawAuth;
  else if (secret) headers.authorization = `Bearer ${secret}`;
  return request(baseUrl, 'POST', appId ? `/api/webhooks/subprovider/${appId}` : '/api/webhooks/subprovider', { body, headers });
}
