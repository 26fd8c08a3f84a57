// Whether PostgreSQL answers (readiness, `svc dev`'s start checks): a trivial query within a deadline.
import type { Knex } from 'knex';

export async function isDatabaseReachable(db: Knex, timeoutMs = 2000): Promise<boolean> {
  try {
    await Promise.race([db.raw('select 1'), new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), timeoutMs).unref())]);
    return true;
  } catch {
    return false;
  }
}
