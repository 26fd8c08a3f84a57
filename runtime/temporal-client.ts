// The Temporal client of the API, the worker's inbox drainer and the operator commands. The connection is lazy so
// the API starts (and /readyz can say what is wrong) while Temporal is still coming up or away. gRPC backs off
// reconnecting up to 2 minutes by default: after a long outage the API would keep answering 503 for that long
// once Temporal is back, so reconnection attempts are capped at a few seconds apart.
import { Client, Connection } from '@temporalio/client';
import type { TemporalConnectExtras } from './temporal-target.js';

const RECONNECT = { 'grpc.initial_reconnect_backoff_ms': 500, 'grpc.max_reconnect_backoff_ms': 3000 };

export function createTemporalClient(address: string, namespace: string, extras: TemporalConnectExtras = {}): Client {
  const connection = Connection.lazy({ address, ...extras, channelArgs: RECONNECT });
  return new Client({ connection, namespace });
}

export async function isTemporalReachable(client: Client, timeoutMs = 2000): Promise<boolean> {
  try {
    await client.connection.withDeadline(Date.now() + timeoutMs, () =>
      client.connection.workflowService.describeNamespace({ namespace: client.options.namespace }),
    );
    return true;
  } catch {
    return false;
  }
}
