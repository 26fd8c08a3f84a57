// The seam for tools that read no account (svc_list_sdks, the scaffolds, svc_explain_contract, the recommend_*
// tools): they come from the SDK registry, built elsewhere. This file only states their shape, structurally, so the
// tool server can list and run any list of such objects without importing the registry.

/** A field problem, in the shape of the REST 422 body (`loc`, `msg`, `type`). */
export interface ExtraToolFieldProblem {
  loc: string[];
  msg: string;
  type: string;
}

export interface ExtraToolContext {
  /** The service origin ({base_url}), for URLs the tool writes into its answer. */
  baseUrl: string;
}

export interface ExtraTool {
  name: string;
  title: string;
  description: string;
  /** JSON Schema object of the arguments. */
  inputSchema: Record<string, unknown>;
  /** JSON Schema object of the result. */
  outputSchema: Record<string, unknown>;
  /** Bad input throws an error carrying `fields` (the registry's RegistryInputError); anything else is a bug. */
  run(input: Record<string, unknown>, ctx: ExtraToolContext): Record<string, unknown>;
}

/** An error that lists offending fields (the registry's RegistryInputError, recognised by shape, not by class). */
export function fieldProblemsOf(err: unknown): ExtraToolFieldProblem[] | undefined {
  if (!(err instanceof Error)) return undefined;
  const fields = (err as Error & { fields?: unknown }).fields;
  if (!Array.isArray(fields)) return undefined;
  return fields.map((f: Partial<ExtraToolFieldProblem> | null) => ({
    loc: Array.isArray(f?.loc) ? f.loc.map(String) : [],
    msg: typeof f?.msg === 'string' ? f.msg : 'Invalid value',
    type: typeof f?.type === 'string' ? f.type : 'value_error',
  }));
}
