// What PostgreSQL can store: text and jsonb cannot hold U+0000, and deeply nested JSON is refused before it costs
// a stack. Every JSON body is checked once at the edge (api/middleware/json-body.ts), so no handler meets either.
import type { FieldProblem } from '../errors/http-errors.js';

/** Deepest nesting accepted in any JSON body (provider events nest four levels, SDK bodies two). */
const MAX_DEPTH = 32;

/**
 * The first place in a parsed JSON body that PostgreSQL could not store (text and jsonb cannot hold U+0000) or that
 * nests too deep to serialise safely, as a 422 field problem; undefined when the whole body is storable. Bodies may
 * be kept whole (the webhook event log), so this covers fields no handler reads too. Iterative: depth is the question.
 */
export function findUnstorable(body: unknown): FieldProblem | undefined {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value: body, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000'))
        return { loc: ['body', ...path], msg: 'NUL characters (\\u0000) are not accepted', type: 'value_error' };
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (path.length >= MAX_DEPTH)
      return { loc: ['body', ...path], msg: `JSON nested deeper than ${MAX_DEPTH} levels`, type: 'value_error' };
    for (const [key, child] of Array.isArray(value) ? value.entries() : Object.entries(value)) {
      if (typeof key === 'string' && key.includes('\u0000'))
        return { loc: ['body', ...path], msg: 'NUL characters (\\u0000) are not accepted', type: 'value_error' };
      stack.push({ value: child, path: [...path, key] });
    }
  }
  return undefined;
}
