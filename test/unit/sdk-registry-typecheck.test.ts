// Every TypeScript scaffold (React Native and web, every kind, every reporting path) type-checks against the SDK
// package itself (packages/sdk, its built declarations; `npm test` builds it first) with the TypeScript compiler
// API, so a scaffold calling a function the SDK lacks or reading a wrongly cased field fails here, and the scaffolds
// cannot drift from the SDK. The registry's package names map to the package's entries: `@svc/web` is
// `@svc/sdk/web`, `@svc/react-native` is `@svc/sdk/react-native`. The last tests prove the check can fail.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { REGISTRY_TOOLS } from '../../sdk-registry/tools.js';

const SDK_DIST = fileURLToPath(new URL('../../packages/sdk/dist/esm/', import.meta.url));
const ENTRY_PATHS = [`${SDK_DIST}web.d.ts`, `${SDK_DIST}react-native.d.ts`];
const TYPES_PATH = fileURLToPath(new URL('../../packages/sdk/src/types.ts', import.meta.url));
const VIRTUAL = '/virtual/';
const ctx = { baseUrl: 'https://svc.example.test' };

// The third-party clients the scaffolds call, reduced to the members they use (shapes as the real packages).
const PROVIDER_STUBS = `
declare module 'react-native-purchases' {
  interface CustomerInfo { entitlements: { active: { [id: string]: { isActive: boolean } | undefined } } }
  const Purchases: {
    setAttributes(attributes: { [key: string]: string | null }): Promise<void>;
    getCustomerInfo(): Promise<CustomerInfo>;
  };
  export default Purchases;
}
declare module '@react-native-async-storage/async-storage' {
  const AsyncStorage: {
    getItem(key: string): Promise<string | null>;
    setItem(key: string, value: string): Promise<void>;
    removeItem(key: string): Promise<void>;
    clear(): Promise<void>;
  };
  export default AsyncStorage;
}
declare module 'react-native' {
  export const Platform: { OS: 'ios' | 'android' | 'windows' | 'macos' | 'web' };
}
declare module '@revenuecat/purchases-js' {
  export class Purchases {
    static getSharedInstance(): Purchases;
    isEntitledTo(entitlementIdentifier: string): Promise<boolean>;
  }
}
`;
// React Native has a console but no DOM; web gets lib.dom.
const RN_GLOBALS = 'declare const console: { log(...data: unknown[]): void };\n';

const OPTIONS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  noUnusedLocals: true,
  noUncheckedIndexedAccess: true,
  skipLibCheck: false,
  skipDefaultLibCheck: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  types: [],
  paths: { '@svc/sdk/web': [ENTRY_PATHS[0]!], '@svc/sdk/react-native': [ENTRY_PATHS[1]!] },
};

const libCache = new Map<string, ts.SourceFile | undefined>();

/** Diagnostics per virtual file name ('' for files outside the scaffold, such as the package's declarations). */
function typeCheck(files: Record<string, string>, web: boolean): Map<string, string[]> {
  const virtual = new Map(
    Object.entries({ ...files, 'stubs.d.ts': PROVIDER_STUBS + (web ? '' : RN_GLOBALS) }).map(([n, c]) => [VIRTUAL + n, c]),
  );
  const options = { ...OPTIONS, lib: web ? ['lib.es2023.d.ts', 'lib.dom.d.ts'] : ['lib.es2023.d.ts'] };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version) => {
    const text = virtual.get(name);
    if (text !== undefined) return ts.createSourceFile(name, text, version);
    if (!libCache.has(name)) libCache.set(name, getSourceFile(name, version));
    return libCache.get(name);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => virtual.has(name) || fileExists(name);
  host.directoryExists = (name) => `${name}/` === VIRTUAL || ts.sys.directoryExists(name);
  const readFile = host.readFile.bind(host);
  host.readFile = (name) => virtual.get(name) ?? readFile(name);
  const program = ts.createProgram([...virtual.keys()], options, host);
  const byFile = new Map<string, string[]>();
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const key = d.file?.fileName.startsWith(VIRTUAL) ? d.file.fileName.slice(VIRTUAL.length) : '';
    const where = d.file && d.start !== undefined ? `:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}` : '';
    byFile.set(key, [...(byFile.get(key) ?? []), `${key}${where} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`]);
  }
  return byFile;
}

type Files = Record<string, string>;
const tool = (kind: string) => REGISTRY_TOOLS.find((t) => t.name === `svc_scaffold_${kind}`)!;

/** Every TypeScript file of every scaffold kind for one SDK and option set, under their scaffold file names. */
function scaffoldSources(sdk: string, options: Record<string, unknown>): { files: Files; kinds: Record<string, string[]> } {
  const files: Files = {};
  const kinds: Record<string, string[]> = {};
  for (const kind of ['install', 'init', 'attribution', 'manual_code', 'report_purchase', 'full']) {
    const out = tool(kind).run({ sdk, options }, ctx) as { files: { file_name: string; language: string; code: string }[] };
    const sources = out.files.filter((f) => f.language === 'typescript');
    kinds[kind] = sources.map((f) => f.file_name);
    for (const f of sources) files[f.file_name] = f.code;
  }
  return { files, kinds };
}

const VARIANTS: { sdk: string; label: string; options: Record<string, unknown> }[] = [
  { sdk: 'react-native', label: 'subscription provider', options: {} },
  { sdk: 'react-native', label: 'store-direct, auto capture', options: { store_direct: true } },
  { sdk: 'react-native', label: 'store-direct, reports itself', options: { reports_purchases_itself: true } },
  { sdk: 'web', label: 'subscription provider', options: {} },
  { sdk: 'web', label: 'store-direct shell, reports itself', options: { store_direct: true, runtime: 'capacitor' } },
];

for (const { sdk, label, options } of VARIANTS) {
  test(`${sdk} (${label}): every scaffold kind type-checks against the SDK package`, (t) => {
    const { files, kinds } = scaffoldSources(sdk, options);
    const diagnostics = typeCheck(files, sdk === 'web');
    t.deepEqual(diagnostics.get('') ?? [], [], "the package's declarations compile");
    for (const [kind, names] of Object.entries(kinds)) {
      t.true(names.length > 0, `${kind} has a TypeScript file`);
      for (const name of names) t.deepEqual(diagnostics.get(name) ?? [], [], `${kind}: ${name}`);
    }
  });
}

// The check has teeth: each broken copy of a real scaffold must fail.
const BREAKAGES: { label: string; sdk: string; kind: string; file: string; from: string | RegExp; to: string }[] = [
  {
    label: 'a function the SDK does not have',
    sdk: 'web',
    kind: 'init',
    file: 'svc-init.ts',
    from: 'Svc.initialize(',
    to: 'Svc.initialise(',
  },
  {
    label: 'camelCase result field on React Native',
    sdk: 'react-native',
    kind: 'manual_code',
    file: 'svc-referral-code.ts',
    from: 'result.error_code',
    to: 'result.errorCode',
  },
  {
    label: 'svc_referral as a boolean',
    sdk: 'react-native',
    kind: 'full',
    file: 'svc.ts',
    from: "svc_referral: 'true'",
    to: 'svc_referral: true',
  },
  { label: 'snake_case access result', sdk: 'web', kind: 'full', file: 'svc.ts', from: /\)\.hasAccess/g, to: ').has_access' },
];

for (const b of BREAKAGES) {
  test(`type-check fails on ${b.label}`, (t) => {
    const { files } = scaffoldSources(b.sdk, {});
    const original = files[b.file]!;
    t.deepEqual(typeCheck(files, b.sdk === 'web').get(b.file) ?? [], [], 'clean before');
    t.true(typeof b.from === 'string' ? original.includes(b.from) : b.from.test(original), 'the scaffold has the line to break');
    files[b.file] = original.replace(b.from, b.to);
    t.true((typeCheck(files, b.sdk === 'web').get(b.file) ?? []).length > 0, 'fails after');
  });
}

test('the package declares every function the client-side rules need, in both entries', (t) => {
  const text = readFileSync(TYPES_PATH, 'utf8');
  for (const fn of [
    'initialize',
    'checkAttribution',
    'identify',
    'trackEvent',
    'validateCode',
    'setReferralCode',
    'applyCode',
    'checkAccess',
    'reportPurchase',
    'syncPurchases',
    'clearAttribution',
    'getActiveCampaigns',
    'getReferralCode',
  ]) {
    t.regex(text, new RegExp(`\\b${fn}\\(`), fn);
  }
  for (const entry of ENTRY_PATHS) t.regex(readFileSync(entry, 'utf8'), /export default Svc/);
});

test('declared validation and purchase results keep snake_case (rule 14); checkAccess answers hasAccess (rules 3, 9)', (t) => {
  const source = ts.createSourceFile(TYPES_PATH, readFileSync(TYPES_PATH, 'utf8'), ts.ScriptTarget.ES2022);
  const members = new Map<string, string[]>();
  const visit = (node: ts.Node) => {
    if (ts.isInterfaceDeclaration(node)) {
      members.set(
        node.name.text,
        node.members.flatMap((m) => (m.name && ts.isIdentifier(m.name) ? [m.name.text] : [])),
      );
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  for (const name of ['ValidationResult', 'SetReferralCodeResult', 'ApplyCodeResult', 'PurchaseResult', 'AttributionResult']) {
    const fields = members.get(name) ?? [];
    t.true(fields.length > 0, name);
    t.deepEqual(
      fields.filter((f) => /[A-Z]/.test(f)),
      [],
      `${name} has no camelCase field`,
    );
  }
  t.true(members.get('ValidationResult')!.includes('error_code'));
  t.true(members.get('PurchaseResult')!.includes('event_type'));
  t.deepEqual(members.get('AccessResult'), ['hasAccess', 'source', 'entitlement', 'expiresAt', 'code']);
});
