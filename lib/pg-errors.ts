// Recognising PostgreSQL errors the domain turns into answers (a taken code is a 409, not a 500).

/** A unique violation of the named unique index or constraint (SQLSTATE 23505; pg reports the index name). */
export function isUniqueViolation(err: unknown, index: string): boolean {
  const e = err as { code?: unknown; constraint?: unknown } | null | undefined;
  return e?.code === '23505' && e.constraint === index;
}
