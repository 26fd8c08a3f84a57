// Drives conversion workflows directly (without HTTP) the way the API does: update-with-start per event.
import type { Client } from '@temporalio/client';
import { attributeLateInConversion, ingestIntoConversion } from '../../workflow-clients/conversion-ingest.js';
import { conversionKeyOf, normalizeSubproviderEvent } from '../../lib/purchase-event.js';
import type { IngestResult, LateAttributionResult } from '../../workflows/conversion-messages.js';
import type { ProviderBody } from './subprovider-events.js';

export function ingest(
  client: Client,
  taskQueue: string,
  appId: string,
  body: ProviderBody,
  runOptions: { maxEventsPerRun?: number; closeEndedAfter?: string } = {},
): Promise<IngestResult> {
  const event = normalizeSubproviderEvent(body, Date.now());
  return ingestIntoConversion(client, { taskQueue, appId, conversionKey: conversionKeyOf(event)!, runOptions }, event);
}

/** The app's late report of `body`'s purchase carrying `code` (`attributeLate`), as activities/store-direct/record.ts sends it. */
export function reportLate(
  client: Client,
  taskQueue: string,
  appId: string,
  body: ProviderBody,
  code: string,
): Promise<LateAttributionResult> {
  const event = { ...normalizeSubproviderEvent(body, Date.now()), referralCode: code };
  return attributeLateInConversion(client, { taskQueue, appId, conversionKey: conversionKeyOf(event)! }, event);
}
