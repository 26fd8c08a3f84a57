// An outage of a system we depend on (PostgreSQL, Temporal) is no bug of the request: every surface answers it
// with 503 and `{"detail"}` (deliver or call again), never 500. Recognised by shape, so this stays free of I/O.
import { isTransientDatabaseError } from './pg-errors.js';

/** gRPC statuses of a frontend that is away or overloaded: 4 DEADLINE_EXCEEDED, 8 RESOURCE_EXHAUSTED, 14 UNAVAILABLE. */
const UNAVAILABLE_GRPC = new Set([4, 8, 14]);
const TEMPORAL_UNAVAILABLE_ERRORS = new Set(['WorkflowUpdateRPCTimeoutOrCancelledError', 'TransportError', 'ConnectionError']);

export function isTemporalUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, name, message } = e as { code?: unknown; name?: unknown; message?: unknown };
    if (typeof name === 'string' && TEMPORAL_UNAVAILABLE_ERRORS.has(name)) return true;
    // grpc-js errors carry a numeric `code` and a `metadata`; ServiceError wraps them as `cause`.
    if (typeof code === 'number' && UNAVAILABLE_GRPC.has(code) && 'metadata' in e) return true;
    if (
      name === 'ServiceError' &&
      typeof message === 'string' &&
      /UNAVAILABLE|DEADLINE_EXCEEDED|Failed to connect|No connection established/i.test(message)
    )
      return true;
  }
  return false;
}

export function isOutage(err: unknown): boolean {
  return isTransientDatabaseError(err) || isTemporalUnavailable(err);
}

/** Which system is away, for the 503 answer's detail. */
export function outageDetail(err: unknown): string {
  return isTransientDatabaseError(err)
    ? 'The database is temporarily unavailable; try again shortly.'
    : 'The workflow service is temporarily unavailable; try again shortly.';
}
