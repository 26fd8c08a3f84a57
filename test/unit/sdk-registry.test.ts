// The SDK registry's data and answers: versions and casing from the spec, stack aliases, validation advice,
// contract topics, input errors, the svc://sdk/{platform} resource and the tool table the MCP server reads.
import test from 'ava';
import { CONTRACT_VERSION, REGISTRY_TOOLS, RegistryInputError, sdkResource, type RegistryTool } from '../../sdk-registry/tools.js';

const ctx = { baseUrl: 'https://svc.example.test' };
const tool = (name: string): RegistryTool => REGISTRY_TOOLS.find((t) => t.name === name)!;
const run = (name: string, input: Record<string, unknown>): any => tool(name).run(input, ctx);

test('the tool table: the 11 registry tools, each described with object schemas', (t) => {
  t.deepEqual(REGISTRY_TOOLS.map((x) => x.name).sort(), [
    'svc_explain_contract',
    'svc_list_sdks',
    'svc_recommend_sdk',
    'svc_recommend_validation',
    'svc_recommend_validation_for_platforms',
    'svc_scaffold_attribution',
    'svc_scaffold_full',
    'svc_scaffold_init',
    'svc_scaffold_install',
    'svc_scaffold_manual_code',
    'svc_scaffold_report_purchase',
  ]);
  for (const x of REGISTRY_TOOLS) {
    t.true(x.title.length > 0 && x.description.length > 80, x.name);
    t.is(x.inputSchema.type, 'object', x.name);
    t.is(x.outputSchema.type, 'object', x.name);
    t.is(x.inputSchema.additionalProperties, false, `${x.name} refuses unknown input`);
  }
  t.false(REGISTRY_TOOLS.some((x) => x.name === 'svc_setup_subprovider'));
});

test('versions, languages and result casing per the spec', (t) => {
  t.is(CONTRACT_VERSION, '1.6.0');
  const sdks = run('svc_list_sdks', {}).sdks as { id: string; version: string; language: string; result_casing: string }[];
  t.deepEqual(
    sdks.map((s) => [s.id, s.version, s.language, s.result_casing]),
    [
      ['react-native', '1.6.1', 'typescript', 'snake_case'],
      ['ios', '1.1.1', 'swift', 'camelCase'],
      ['android', '1.1.1', 'kotlin', 'camelCase'],
      ['flutter', '1.1.1', 'dart', 'camelCase'],
      ['web', '1.0.1', 'typescript', 'snake_case'],
    ],
  );
});

test('clearAttribution removes attribution, code and user id; web keeps the user id and drops the launch code', (t) => {
  const cleared = (id: string) => (sdkResource(id).storage as { cleared_by_clear_attribution: string[] }).cleared_by_clear_attribution;
  t.deepEqual(cleared('ios'), ['@svc/attribution', '@svc/svc_code', '@svc/app_user_id']);
  t.deepEqual(cleared('web'), ['@svc/attribution', '@svc/svc_code', '@svc/launch_code']);
});

const STACKS: { stack: string; sdks: string[]; runtime?: string }[] = [
  { stack: 'Expo app with RevenueCat', sdks: ['react-native'] },
  { stack: 'React Native in TypeScript', sdks: ['react-native'] },
  { stack: 'react-native', sdks: ['react-native'] },
  { stack: 'SwiftUI', sdks: ['ios'] },
  { stack: 'Kotlin + Jetpack Compose', sdks: ['android'] },
  { stack: 'flutter/dart', sdks: ['flutter'] },
  { stack: 'Next.js', sdks: ['web'], runtime: 'browser' },
  { stack: 'Ionic Capacitor', sdks: ['web'], runtime: 'capacitor' },
  { stack: 'TypeScript', sdks: ['web'], runtime: 'browser' },
  { stack: 'Kotlin Multiplatform', sdks: ['ios', 'android'] },
  { stack: 'native iOS and Android apps', sdks: ['ios', 'android'] },
];
for (const { stack, sdks, runtime } of STACKS) {
  test(`svc_recommend_sdk: "${stack}"`, (t) => {
    const out = run('svc_recommend_sdk', { stack });
    t.true(out.matched);
    t.deepEqual(out.recommendations.map((r: any) => r.sdk_id).sort(), [...sdks].sort());
    if (runtime) t.is(out.recommendations[0].runtime, runtime);
  });
}

test('svc_recommend_sdk: Swift, Kotlin and Flutter stacks are offered the SDK-less path (store offer codes); web is not', (t) => {
  for (const stack of ['SwiftUI', 'Jetpack Compose in Kotlin', 'flutter']) {
    const out = run('svc_recommend_sdk', { stack });
    t.truthy(out.sdk_less, stack);
    t.true(out.sdk_less.tools.includes('svc_add_offer_code'), stack);
    t.true(
      out.sdk_less.steps.some((s: string) => /one offer per creator/.test(s)),
      stack,
    );
  }
  t.is(run('svc_recommend_sdk', { stack: 'Next.js' }).sdk_less, null);
});

test('svc_recommend_sdk: the alias fields work, and an unknown stack lists the choices instead of failing', (t) => {
  t.is(run('svc_recommend_sdk', { hostStack: 'expo' }).recommendations[0].sdk_id, 'react-native');
  t.is(run('svc_recommend_sdk', { sdkId: 'flutter' }).recommendations[0].sdk_id, 'flutter');
  t.is(run('svc_recommend_sdk', { language: 'swift' }).recommendations[0].sdk_id, 'ios');
  const unknown = run('svc_recommend_sdk', { stack: 'Unity 6' });
  t.false(unknown.matched);
  t.deepEqual(unknown.recommendations, []);
  t.deepEqual(
    unknown.choices.map((c: any) => c.sdk_id),
    ['react-native', 'ios', 'android', 'flutter', 'web'],
  );
  t.regex(unknown.message, /No SDK matches 'Unity 6'/);
});

test('scaffold SDK selection: the most specific field decides; none, unknown or two SDKs are input errors', (t) => {
  t.is(run('svc_scaffold_init', { framework: 'react native', platform: 'ios' }).sdk_id, 'react-native');
  t.throws(() => run('svc_scaffold_init', { platform: 'swiftui' }), { instanceOf: RegistryInputError, message: /No Swift package exists/ });
  const missing = t.throws(() => run('svc_scaffold_init', {}), { instanceOf: RegistryInputError });
  t.deepEqual(missing.fields[0]!.loc, ['sdk']);
  const unknown = t.throws(() => run('svc_scaffold_init', { sdk: 'unity' }), { instanceOf: RegistryInputError });
  t.regex(unknown.message, /react-native, ios, android, flutter, web/);
  t.throws(() => run('svc_scaffold_init', { sdk: 'kmp' }), { instanceOf: RegistryInputError, message: /several SDKs/ });
});

test('scaffold options: secret keys refused, reporting itself implies store-direct, unknown options refused', (t) => {
  t.throws(() => run('svc_scaffold_install', { sdk: 'android', sdk_key: 'it_mcp_abc' }), {
    instanceOf: RegistryInputError,
    message: /secret key/,
  });
  t.throws(() => run('svc_scaffold_install', { sdk: 'android', sdk_key: 'it_srv_abc' }), { instanceOf: RegistryInputError });
  t.throws(() => run('svc_scaffold_install', { sdk: 'android', sdk_key: 'pk_live' }), { instanceOf: RegistryInputError });
  t.throws(() => run('svc_scaffold_install', { sdk: 'android', options: { store_direct: false, reports_purchases_itself: true } }), {
    instanceOf: RegistryInputError,
  });
  t.throws(() => run('svc_scaffold_install', { sdk: 'web', options: { store_direct: true, reports_purchases_itself: false } }), {
    instanceOf: RegistryInputError,
  });
  const extra = t.throws(() => run('svc_scaffold_install', { sdk: 'android', options: { autocapture: false } }), {
    instanceOf: RegistryInputError,
  });
  t.deepEqual(extra.fields[0], { loc: ['options', 'autocapture'], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' });
  const implied = run('svc_scaffold_install', { sdk: 'android', options: { reports_purchases_itself: true } }).options;
  t.like(implied, { store_direct: true, reports_purchases_itself: true, auto_capture: false });
  t.like(run('svc_scaffold_install', { sdk: 'android', options: { store_direct: true } }).options, { auto_capture: true });
  t.like(run('svc_scaffold_install', { sdk: 'android' }).options, { store_direct: false, auto_capture: null });
});

test('svc_recommend_validation: provider kept, store-direct without one, web provider-only, unknown asks', (t) => {
  const ios = run('svc_recommend_validation', { platform: 'ios', uses_subscription_provider: true, app_id: 'app_1' });
  t.is(ios.recommended_path, 'subprovider');
  t.regex(ios.rule, /never both/);
  t.true(ios.paths[0].needs.some((n: string) => n.includes('https://svc.example.test/api/webhooks/subprovider/app_1')));
  t.true(ios.paths[0].client_side.some((n: string) => n.includes('svc_referral (the string "true")')));
  const android = run('svc_recommend_validation', { platform: 'kotlin', uses_subscription_provider: false });
  t.is(android.platform, 'android');
  t.is(android.recommended_path, 'store-direct');
  t.true(android.paths[1].needs.some((n: string) => /service account/.test(n)));
  t.true(android.paths[1].client_side.some((n: string) => /autoCapture: false/.test(n)));
  const web = run('svc_recommend_validation', { platform: 'next.js' });
  t.is(web.recommended_path, 'subprovider');
  t.false(web.paths[1].available);
  const unknown = run('svc_recommend_validation', { platform: 'ios' });
  t.is(unknown.recommended_path, null);
  t.regex(unknown.question, /subscription provider/);
  t.throws(() => run('svc_recommend_validation', { platform: 'flutter' }), { instanceOf: RegistryInputError, message: /for_platforms/ });
  t.throws(() => run('svc_recommend_validation', { platform: 'windows phone' }), { instanceOf: RegistryInputError });
});

test('svc_recommend_validation_for_platforms: cross-platform SDKs expand, platforms deduplicated', (t) => {
  const out = run('svc_recommend_validation_for_platforms', {
    platforms: ['react-native', 'ios', 'web'],
    uses_subscription_provider: false,
  });
  t.deepEqual(
    out.platforms.map((p: any) => p.platform),
    ['ios', 'android', 'web'],
  );
  t.deepEqual(out.store_direct_platforms, ['ios', 'android']);
  t.deepEqual(out.subprovider_platforms, ['web']);
  t.true(out.subprovider_webhook_needed);
  const bad = t.throws(() => run('svc_recommend_validation_for_platforms', { platforms: ['ios', 'bada'] }), {
    instanceOf: RegistryInputError,
  });
  t.deepEqual(bad.fields[0]!.loc, ['platforms', '1']);
});

const TOPIC_FACTS: Record<string, RegExp[]> = {
  attribution: [
    /72 hours/,
    /ip_device_match/,
    /link_param/,
    /re_claimed: true/,
    /first identify for a click wins/,
    /only while their campaign is active/,
  ],
  purchase: [
    /never both be used/,
    /verify, parse, find the code, match campaign and creator, compute commission and platform fee, record conversion, update stats, reserve funds/, // long-line: one regular expression
    /signed JWS/,
    /never a boolean/,
    /503/,
  ],
  comp: [
    /checked on every access check/,
    /without using another seat/,
    /entitlement OR checkAccess\(\)\.hasAccess/,
    /5 minutes under @svc\/access, never caches a negative/,
    /not on the rc_grant/,
  ],
  dedup: [/same event_id is dropped/, /one per user and property set/, /within 60 seconds/, /recorded once/, /UUID v4/],
  'rc-attributes': [
    /svc_code: the uppercased referral code/,
    /svc_referral: the literal string "true", never a boolean/,
    /does not read it/,
    /injected setter callback/,
  ],
};
for (const [topic, facts] of Object.entries(TOPIC_FACTS)) {
  test(`svc_explain_contract ${topic}: states the spec's rules`, (t) => {
    const out = run('svc_explain_contract', { topic });
    t.is(out.contract_version, '1.6.0');
    const text = [out.summary, ...out.rules, ...out.client_rules].join('\n');
    for (const fact of facts) t.regex(text, fact);
  });
}

test('svc_explain_contract: an unknown topic is an input error listing the valid topics', (t) => {
  const error = t.throws(() => run('svc_explain_contract', { topic: 'payouts' }), { instanceOf: RegistryInputError });
  t.deepEqual(error.fields[0]!.loc, ['topic']);
  t.regex(error.message, /attribution, purchase, comp, dedup, rc-attributes/);
  t.throws(() => run('svc_explain_contract', {}), { instanceOf: RegistryInputError, message: /topic Field required/ });
});

test('sdkResource: svc://sdk/{platform} by id or alias; unknown platforms are input errors', (t) => {
  const ios = sdkResource('ios');
  t.like(ios, {
    uri: 'svc://sdk/ios',
    contract_version: '1.6.0',
    version: '1.1.1',
    result_casing: 'camelCase',
    client_base_url: '{base_url}/api',
  });
  t.is(sdkResource('Swift').uri, 'svc://sdk/ios');
  t.is(sdkResource('expo').uri, 'svc://sdk/react-native');
  t.throws(() => sdkResource('symbian'), { instanceOf: RegistryInputError });
  t.throws(() => sdkResource(''), { instanceOf: RegistryInputError });
});
