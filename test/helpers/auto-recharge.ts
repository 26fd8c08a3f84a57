// What the auto-recharge tests share: a signed top-up link (asked for by an agent key, opened by the human), the
// page's form posts, and waiting for the organization's `auto-recharge/{org_id}` workflow on the dev server.
import type { Client } from '@temporalio/client';
import type { Knex } from 'knex';
import { createAgentKey } from '../../db/agent-keys-writes.js';
import { autoRechargeWorkflowId, type AutoRechargeResult } from '../../workflows/auto-recharge-messages.js';
import { request } from './http.js';

export async function topupLink(baseUrl: string, db: Knex, orgId: string): Promise<{ path: string; agentKey: string }> {
  const key = await createAgentKey(db, { orgId, name: 'billing', scopes: ['billing:read'] });
  const res = await request(baseUrl, 'POST', '/api/agent/wallet/topup-link', { token: key.key, body: {} });
  if (res.status !== 200) throw new Error(res.text);
  const url = new URL(res.body.url as string);
  return { path: `${url.pathname}${url.search}`, agentKey: key.key };
}

export const postForm = (baseUrl: string, path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  request(baseUrl, 'POST', path, {
    rawBody: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', ...headers },
  });

export const enableFields = (threshold: string, amount: string, extra: Record<string, string> = {}) => ({
  action: 'auto_recharge_enable',
  auto_recharge_threshold_usd: threshold,
  auto_recharge_amount_usd: amount,
  ...extra,
});

/** The result of the organization's latest recharge run (every start has happened once the callers answered). */
export function rechargeResult(temporal: Client, orgId: string): Promise<AutoRechargeResult> {
  return temporal.workflow.getHandle(autoRechargeWorkflowId(orgId)).result() as Promise<AutoRechargeResult>;
}

/** The auto-recharge payments of the organization, oldest first. */
export const recharges = (db: Knex, orgId: string) =>
  db('payments')
    .where({ org_id: orgId, kind: 'auto_recharge' })
    .orderBy('created_at')
    .select('id', 'status', 'amount_micros', 'credited_micros', 'failure', 'external_id', 'provider');

export const topupEntries = (db: Knex, orgId: string) =>
  db('wallet_ledger')
    .where({ org_id: orgId, entry_type: 'topup' })
    .orderBy('id')
    .select('balance_delta_micros', 'idempotency_key', 'external_ref');
