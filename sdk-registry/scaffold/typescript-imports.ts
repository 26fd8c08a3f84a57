// One import line per module for the TypeScript scaffolds: sections each import what they use, and a file that
// combines them (`full`) may not bind `Svc` or a type twice.
const IMPORT = /^import (type )?(?:(\w+)(?:, )?)?(?:\{ ([^}]*) \})? from '([^']+)';$/;

interface ModuleImports {
  defaultName: string | null;
  values: Set<string>;
  types: Set<string>;
}

export function mergeTypescriptImports(lines: string[]): string[] {
  const modules = new Map<string, ModuleImports>();
  for (const line of lines) {
    const m = IMPORT.exec(line);
    if (!m) throw new Error(`scaffold import not understood: ${line}`);
    const [, typeOnly, defaultName, named, from] = m as unknown as [
      string,
      string | undefined,
      string | undefined,
      string | undefined,
      string,
    ];
    const entry = modules.get(from) ?? { defaultName: null, values: new Set<string>(), types: new Set<string>() };
    if (defaultName) entry.defaultName = defaultName;
    for (const raw of (named ?? '')
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean)) {
      if (typeOnly || raw.startsWith('type ')) entry.types.add(raw.replace(/^type /, ''));
      else entry.values.add(raw);
    }
    modules.set(from, entry);
  }
  return [...modules].map(([from, { defaultName, values, types }]) => {
    const typeNames = [...types].filter((t) => !values.has(t));
    const valueOnly = defaultName !== null || values.size > 0;
    const named = [...values, ...typeNames.map((t) => (valueOnly ? `type ${t}` : t))];
    const braces = named.length ? `{ ${named.join(', ')} }` : '';
    const bindings = [defaultName, braces].filter(Boolean).join(', ');
    return `import ${valueOnly ? '' : 'type '}${bindings} from '${from}';`;
  });
}
