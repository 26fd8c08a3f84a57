// The purchase inbox (schema 0015), read: conversion events as received, written before they are handed to their
// conversion workflow, once per app and idempotency key. Its states change only in db/purchase-inbox-writes.ts,
// driven by actions/purchase-inbox.ts.
import type { Knex } from 'knex';
import type { PurchaseInboxRow } from '../schema/types.js';

/** Events of the same conversion that arrived before `row` and still wait: they go first, to keep arrival order. */
export async function findEarlierWaiting(
  db: Knex,
  row: Pick<PurchaseInboxRow, 'id' | 'app_id' | 'conversion_key'>,
  limit = 50,
): Promise<PurchaseInboxRow[]> {
  return db('purchase_inbox')
    .where({ app_id: row.app_id, conversion_key: row.conversion_key, status: 'waiting' })
    .andWhere('id', '<', row.id)
    .orderBy('id')
    .limit(limit);
}

export async function findInboxEntry(db: Knex, appId: string, idempotencyKey: string): Promise<PurchaseInboxRow | undefined> {
  return db('purchase_inbox').where({ app_id: appId, idempotency_key: idempotencyKey }).first();
}

export async function countWaitingInboxRows(db: Knex): Promise<number> {
  const row = await db('purchase_inbox').where('status', 'waiting').count<{ count: string }[]>('* as count').first();
  return Number(row?.count ?? 0);
}
