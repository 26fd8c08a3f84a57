// Opaque page cursors for keyset paging: the last row's sort key as base64url JSON. Opaque so clients pass it back
// unchanged; checked on the way in (anything malformed is the caller's error, never a query with garbage).
import { ValidationError } from '../errors/http-errors.js';

export function encodeCursor(key: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

/** The key of a cursor this service issued with `length` string parts, or a 422 naming `field`. */
export function decodeStringCursor(cursor: string, length: number, field = 'cursor'): string[] {
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    key = undefined;
  }
  if (!Array.isArray(key) || key.length !== length || !key.every((k) => typeof k === 'string' && k.length > 0 && k.length <= 100)) {
    throw new ValidationError([
      { loc: ['query', field], msg: 'Not a cursor this endpoint issued: pass next_cursor back unchanged', type: 'value_error' },
    ]);
  }
  return key as string[];
}
