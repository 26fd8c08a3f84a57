// The API's Temporal client. The connection is lazy so the API starts (and /readyz can say what is wrong) while
// Temporal is still coming up or briefly away.
import { Client, Connection } from '@temporalio/client';

export function createTemporalClient(address: string, namespace: string): Client {
  const connection = Connection.lazy({ address });
  return new Client({ connection, namespace });
}

export async function isTemporalReachable(client: Client, timeoutMs = 2000): Promise<boolean> {
  try {
    await client.connection.withDeadline(Date.now() + timeoutMs, () =>
      client.connection.workflowService.describeNamespace({ namespace: client.options.namespace }));
    return true;
  } catch {
    return false;
  }
}
