// The one error the registry tools throw: bad input, with the FastAPI-style field list the rest of the service
// uses. `loc` is the path inside the tool's input (['topic'], ['options', 'store_direct']); the tool server adds
// its own prefix if it wants one.
export interface RegistryFieldProblem {
  loc: string[];
  msg: string;
  type: string;
}

export class RegistryInputError extends Error {
  constructor(
    message: string,
    readonly fields: RegistryFieldProblem[],
  ) {
    super(message);
    this.name = 'RegistryInputError';
  }
}

export function inputError(field: string[], msg: string, type = 'value_error'): RegistryInputError {
  return new RegistryInputError(msg, [{ loc: field, msg, type }]);
}
