// Route-level request validation: the JSON Schema of the body (or query) is the contract; a failure is 422 listing
// every offending field. Unknown extra fields are kept out of the handler's input by the schemas themselves
// (they list what they read) and otherwise ignored.
import { snakeCaseAliases } from '../../lib/aliases.js';
import { BadRequestError } from '../../errors/http-errors.js';
import { assertValid } from '../../lib/validation.js';
import { NOT_JSON } from './json-body.js';
import type { AppContext, Middleware } from '../context.js';

export function validateBody(
  schema: object,
  opts: { aliases?: Record<string, string>; nestedAliases?: Record<string, Record<string, string>> } = {},
): Middleware {
  return async (ctx, next) => {
    if (ctx.state.bodyInvalid) throw new BadRequestError(NOT_JSON);
    const raw = ctx.state.body;
    const body =
      opts.aliases && raw && typeof raw === 'object'
        ? snakeCaseAliases(raw as Record<string, unknown>, opts.aliases, opts.nestedAliases)
        : raw;
    ctx.state.input = assertValid(schema, body, 'body');
    return next();
  };
}

export function validateQuery(schema: object): Middleware {
  return async (ctx, next) => {
    ctx.state.input = assertValid(schema, { ...ctx.query }, 'query');
    return next();
  };
}

/** The validated input of this request, typed by the handler that declared the schema. */
export function inputOf<T>(ctx: AppContext): T {
  return ctx.state.input as T;
}
