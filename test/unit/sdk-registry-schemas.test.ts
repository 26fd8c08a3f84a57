// Every registry tool's run() result validates against its own outputSchema, for every SDK and option set, and
// every input schema compiles under ajv's strict mode (the tool server validates with ajv, as lib/validation.ts).
import test from 'ava';
import { Ajv } from 'ajv';
import { REGISTRY_TOOLS, sdkResource } from '../../sdk-registry/tools.js';

const ajv = new Ajv({ allErrors: true, strict: true });
const ctx = { baseUrl: 'http://127.0.0.1:8080' };
const SDKS = ['react-native', 'ios', 'android', 'flutter', 'web'];
/** iOS and Flutter have no package, so no scaffold (sdk-registry-scaffold-rules.test.ts). */
const SCAFFOLDED = ['react-native', 'android', 'web'];

const SCAFFOLD_INPUTS = SCAFFOLDED.flatMap((sdk) => [
  { sdk },
  { sdk, sdk_key: 'it_abc', options: { store_direct: true, reports_purchases_itself: true, entitlement: 'pro' } },
  ...(sdk === 'web' ? [{ sdk, options: { runtime: 'twa' } }] : [{ sdk, options: { store_direct: true } }]),
]);

const INPUTS: Record<string, Record<string, unknown>[]> = {
  svc_list_sdks: [{}],
  svc_recommend_sdk: [
    ...SDKS.map((sdk) => ({ sdkId: sdk })),
    { stack: 'capacitor' },
    { stack: 'Xamarin' },
    { platform: 'android', framework: 'kmp' },
  ],
  svc_recommend_validation: ['ios', 'android', 'web'].flatMap((platform) => [
    { platform },
    { platform, uses_subscription_provider: true, app_id: 'app_1' },
    { platform, uses_subscription_provider: false },
  ]),
  svc_recommend_validation_for_platforms: [{ platforms: SDKS }, { platforms: ['ios'], uses_subscription_provider: true }],
  svc_explain_contract: ['attribution', 'purchase', 'comp', 'dedup', 'rc-attributes'].map((topic) => ({ topic })),
};

for (const tool of REGISTRY_TOOLS) {
  test(`${tool.name}: schemas compile strictly and every result matches the output schema`, (t) => {
    const validateInput = ajv.compile(tool.inputSchema);
    const validateOutput = ajv.compile(tool.outputSchema);
    const inputs = INPUTS[tool.name] ?? SCAFFOLD_INPUTS;
    for (const input of inputs) {
      t.true(validateInput(input), `input ${JSON.stringify(input)}: ${ajv.errorsText(validateInput.errors)}`);
      const output = tool.run(input, ctx);
      t.true(validateOutput(output), `${JSON.stringify(input)}: ${ajv.errorsText(validateOutput.errors)}`);
    }
  });
}

test('the output schemas are closed: an extra or missing field fails validation', (t) => {
  const tool = REGISTRY_TOOLS.find((x) => x.name === 'svc_scaffold_full')!;
  const validate = ajv.compile(tool.outputSchema);
  const output = tool.run({ sdk: 'android' }, ctx);
  t.false(validate({ ...output, extra: 1 }));
  const { files: _files, ...withoutFiles } = output;
  t.false(validate(withoutFiles));
});

test('sdkResource JSON is the registry entry plus resource fields for every SDK', (t) => {
  for (const sdk of SDKS) {
    const resource = sdkResource(sdk);
    t.is(resource.uri, `svc://sdk/${sdk}`);
    t.deepEqual(JSON.parse(JSON.stringify(resource)), resource, 'plain JSON');
    t.true((resource.scaffold_tools as string[]).every((name) => REGISTRY_TOOLS.some((x) => x.name === name)));
  }
});
