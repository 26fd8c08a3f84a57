// Checks a tool's input against its own JSON Schema inside run(), so a caller that skipped the tool server's
// validation still gets a RegistryInputError with the field list, never a TypeError from deep inside.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { RegistryInputError, type RegistryFieldProblem } from './input-error.js';

const ajv = new Ajv({ allErrors: true, strict: false });
const compiled = new WeakMap<object, ValidateFunction>();

function problem(e: ErrorObject): RegistryFieldProblem {
  const loc = e.instancePath.split('/').filter(Boolean);
  const params = e.params as { missingProperty?: string; additionalProperty?: string; allowedValues?: unknown[] };
  if (e.keyword === 'required') return { loc: [...loc, params.missingProperty ?? ''], msg: 'Field required', type: 'missing' };
  if (e.keyword === 'additionalProperties') {
    return { loc: [...loc, params.additionalProperty ?? ''], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' };
  }
  const allowed = params.allowedValues ? `: ${params.allowedValues.join(', ')}` : '';
  return { loc, msg: `${e.message ?? 'Invalid value'}${allowed}`, type: e.keyword };
}

export function checkInput<T>(toolName: string, schema: Record<string, unknown>, input: unknown): T {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  const value = input ?? {};
  if (!validate(value)) {
    const fields = (validate.errors ?? []).map(problem);
    throw new RegistryInputError(
      `Invalid input for ${toolName}: ${fields.map((f) => `${f.loc.join('.') || 'input'} ${f.msg}`).join('; ')}`,
      fields,
    );
  }
  return value as T;
}
