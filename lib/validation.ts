// One ajv instance for every request schema. Errors become the 422 field list: FastAPI-style
// `{loc: ['body', 'field'], msg, type}` items so clients of the original service keep working.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { ValidationError, type FieldProblem } from '../errors/http-errors.js';

const ajv = new Ajv({ allErrors: true, coerceTypes: false, useDefaults: true, removeAdditional: false, strict: false });
addFormats.default(ajv);
const ajvQuery = new Ajv({ allErrors: true, coerceTypes: true, useDefaults: true, strict: false });
addFormats.default(ajvQuery);

const cache = new WeakMap<object, ValidateFunction>();

function compile(schema: object, location: 'body' | 'query' = 'body'): ValidateFunction {
  const hit = cache.get(schema);
  if (hit) return hit;
  const fn = (location === 'query' ? ajvQuery : ajv).compile(schema);
  cache.set(schema, fn);
  return fn;
}

function toFieldProblems(errors: ErrorObject[] | null | undefined, location: 'body' | 'query' | 'path'): FieldProblem[] {
  return (errors ?? []).map((e) => {
    const path = e.instancePath
      .split('/')
      .filter(Boolean)
      .map((p) => (/^\d+$/.test(p) ? Number(p) : p));
    if (e.keyword === 'required') {
      return {
        loc: [location, ...path, (e.params as { missingProperty: string }).missingProperty],
        msg: 'Field required',
        type: 'missing',
      };
    }
    if (e.keyword === 'additionalProperties') {
      return {
        loc: [location, ...path, (e.params as { additionalProperty: string }).additionalProperty],
        msg: 'Extra inputs are not permitted',
        type: 'extra_forbidden',
      };
    }
    return { loc: [location, ...path], msg: e.message ?? 'Invalid value', type: e.keyword };
  });
}

/** Validates (and applies defaults to) `value`, or throws a 422 listing every offending field. */
export function assertValid<T>(schema: object, value: unknown, location: 'body' | 'query' = 'body'): T {
  const fn = compile(schema, location);
  if (location === 'body' && (value === undefined || value === null)) {
    // A body whose every field is optional may be left out entirely (`POST /wallet/topup-link` with no hints).
    const required = (schema as { required?: readonly string[] }).required ?? [];
    if (required.length > 0) throw new ValidationError([{ loc: ['body'], msg: 'A JSON body is required', type: 'missing' }]);
    value = {};
  }
  if (!fn(value)) throw new ValidationError(toFieldProblems(fn.errors, location));
  return value as T;
}

/** The field problems `check` throws as a 422, or none (to list them with other problems of the same request). */
export function problemsFrom(check: () => unknown): FieldProblem[] {
  try {
    check();
    return [];
  } catch (err) {
    if (err instanceof ValidationError) return err.problems;
    throw err;
  }
}
