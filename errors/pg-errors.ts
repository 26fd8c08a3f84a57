// Recognising PostgreSQL errors the domain turns into answers (a taken code is a 409, not a 500), and which failures
// are transient (retry; an HTTP answer is 503) as opposed to data the database refuses for good.

/** A unique violation of the named unique index or constraint (SQLSTATE 23505; pg reports the index name). */
export function isUniqueViolation(err: unknown, index: string): boolean {
  const e = err as { code?: unknown; constraint?: unknown } | null | undefined;
  return e?.code === '23505' && e.constraint === index;
}

/** Socket-level codes of a connection that failed or broke (Node and pg report them as `code`). */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNABORTED',
]);

/**
 * SQLSTATEs that say nothing about the statement: the connection or the server (08 connection exception, 53
 * insufficient resources, 57P01-57P03 shutdown and start-up, 57014 cancelled by a timeout, 58 system error), or the
 * transaction lost a race it can win when run again (40001 serialization failure, 40P01 deadlock, 40003 completion
 * unknown, 55P03 lock not available).
 */
const TRANSIENT_SQLSTATE = /^(08|53|57P0[1-3]|57014|58|40001|40P01|40003|55P03)/;

/** What pg and knex throw when there is no usable connection (no SQLSTATE then). */
const CONNECTION_MESSAGES = [
  'Connection terminated',
  'connection terminated',
  'Client has encountered a connection error',
  'Connection ended unexpectedly',
  'the database system is',
  'Knex: Timeout acquiring a connection',
  'timeout exceeded when trying to connect',
  'Unable to acquire a connection',
  'Client was closed and is not queryable',
];

/** A prepared statement whose table changed since it was prepared (db/prepared.ts prepares it again under a new name). */
export function isStalePreparedStatement(err: unknown): boolean {
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  return code === '0A000' && typeof message === 'string' && message.includes('cached plan must not change result type');
}

/** A database outage, a lost race or a stale prepared statement: the same statement may well succeed later. */
export function isTransientDatabaseError(err: unknown): boolean {
  if (isStalePreparedStatement(err)) return true;
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, name, message } = e as { code?: unknown; name?: unknown; message?: unknown };
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || TRANSIENT_SQLSTATE.test(code))) return true;
    if (name === 'KnexTimeoutError') return true;
    if (typeof message === 'string' && CONNECTION_MESSAGES.some((m) => message.includes(m))) return true;
  }
  return false;
}

/** Data the database refuses (SQLSTATE classes 22 data exception and 23 integrity constraint): refused on every retry. */
export function isRefusedData(err: unknown): boolean {
  const code = (err as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' && /^2[23]/.test(code);
}
