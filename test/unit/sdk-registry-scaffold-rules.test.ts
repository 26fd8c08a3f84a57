// The client-side rules (spec rules 1-14) as markers in every scaffold of every SDK with a package and every
// reporting path; iOS and Flutter have no package, so their scaffolds are refused with what to do instead. The code
// is read with its comments removed, so a rule only stated in a comment does not pass. Expected values come from
// the spec, not from the registry, so a wrong registry entry fails too.
import test, { type ExecutionContext } from 'ava';
import { RegistryInputError, REGISTRY_TOOLS } from '../../sdk-registry/tools.js';

const BASE = 'https://svc.example.test/base/';
const API = 'https://svc.example.test/base/api';
const KEY = 'it_demoKey123';
const SDKS = ['react-native', 'android', 'web'] as const;
type Sdk = (typeof SDKS)[number];
const UNAVAILABLE = ['ios', 'flutter'] as const;

// Spec rule 11, written out per platform.
const SHARED = ['@svc/attribution', '@svc/svc_code', '@svc/app_user_id', '@svc/initialized', '@svc/install_id', '@svc/access'];
// Android: rule 11 names no sent-set key; the Android SDK keeps React Native's (docs/sdk.md).
const SPEC_KEYS: Record<Sdk, string[]> = {
  'react-native': [...SHARED, '@svc/reported_purchases'],
  android: [...SHARED, '@svc/reported_purchases'],
  web: [...SHARED, '@svc/launch_code', '@svc/reported_purchases'],
};
const SNAKE: Record<Sdk, boolean> = { 'react-native': true, web: true, android: false };

type Variant = 'provider' | 'autoCapture' | 'host';
const VARIANT_OPTIONS: Record<Variant, Record<string, unknown>> = {
  provider: {},
  autoCapture: { store_direct: true },
  host: { reports_purchases_itself: true },
};
const variantsOf = (sdk: Sdk): Variant[] => (sdk === 'web' ? ['provider', 'host'] : ['provider', 'autoCapture', 'host']);

interface Out {
  files: { file_name: string; language: string; code: string }[];
  storage_keys: string[];
}

function run(kind: string, sdk: Sdk, variant: Variant): Out {
  const tool = REGISTRY_TOOLS.find((t) => t.name === `svc_scaffold_${kind}`)!;
  return tool.run({ sdk, sdk_key: KEY, options: VARIANT_OPTIONS[variant] }, { baseUrl: BASE }) as unknown as Out;
}

/** Source files only (no package manifests), as one text. */
const source = (out: Out) =>
  out.files
    .filter((f) => !/^(json|yaml)$/.test(f.language) && !/Package\.swift|gradle/.test(f.file_name))
    .map((f) => f.code)
    .join('\n');
/** The same without `//` comments (a `//` inside a URL follows a colon, not a space, and stays). */
const code = (out: Out) => source(out).replace(/(^|\s)\/\/.*$/gm, '$1');

const UPPERCASED =
  /\.(trim\(\)\.toUpperCase\(\)|trim\(\)\.uppercase\(\)|trimmingCharacters\(in: \.whitespacesAndNewlines\)\.uppercased\(\))/;
const AUTO_CAPTURE = /autoCapture\s*[:=]\s*(true|false)/g;
const ACCESS_GATE =
  /entitled \|\| \(await Svc\.checkAccess\(\)\)\.hasAccess|entitled \|\| Svc\.checkAccess\(\)\.hasAccess|if entitled \{ return true \}\s+return await Svc\.checkAccess\(\)\.hasAccess/; // long-line: one regular expression

function assertBaseUrl(t: ExecutionContext, text: string) {
  const values = [...text.matchAll(/base(?:Url|URL)\s*[:=]\s*(?:URL\(string:\s*)?["']([^"']*)["']/g)].map((m) => m[1]);
  t.true(values.length > 0, 'sets the base URL');
  t.deepEqual([...new Set(values)], [API], 'base URL is this server + /api');
}

function assertCasing(t: ExecutionContext, sdk: Sdk, text: string, snakeField: string) {
  const camel = snakeField.replace(/_([a-z])/g, (_m, ch: string) => ch.toUpperCase());
  const [want, never] = SNAKE[sdk] ? [snakeField, camel] : [camel, snakeField];
  t.true(text.includes(`.${want}`), `reads .${want}`);
  t.false(text.includes(`.${never}`), `never reads .${never}`);
}

for (const sdk of SDKS) {
  test(`${sdk}: registry storage keys are exactly spec rule 11's`, (t) => {
    t.deepEqual([...run('install', sdk, 'provider').storage_keys].sort(), [...SPEC_KEYS[sdk]].sort());
  });

  for (const variant of variantsOf(sdk)) {
    const label = `${sdk} (${variant})`;

    test(`${label} install and full: key, base URL, autoCapture, storage keys`, (t) => {
      for (const kind of ['install', 'full']) {
        const out = run(kind, sdk, variant);
        const text = code(out);
        t.true(text.includes(KEY), `${kind}: the given SDK key`);
        assertBaseUrl(t, text);
        const capture = [...text.matchAll(AUTO_CAPTURE)].map((m) => m[1]);
        t.deepEqual(capture, { provider: [], autoCapture: ['true'], host: ['false'] }[variant], `${kind}: autoCapture`);
        // Storage keys, not package names ('@svc/sdk/web' in imports, "(@svc/sdk)" in the header).
        const keys = new Set(source(out).match(/@svc\/[a-z_]+(?![-a-z_'")/])/g));
        t.deepEqual([...keys].sort(), [...SPEC_KEYS[sdk]].sort(), `${kind}: names exactly this platform's keys`);
      }
    });

    test(`${label}: subscriber attributes svc_code uppercased and svc_referral the string "true"`, (t) => {
      for (const kind of ['attribution', 'report_purchase', 'full']) {
        const text = code(run(kind, sdk, variant));
        t.notRegex(text, /svc_referral["']?\s*(:|to)\s*true\b/, `${kind}: never a boolean`);
        if (variant !== 'provider') {
          t.false(text.includes('svc_referral'), `${kind}: store-direct sets no provider attributes`);
          continue;
        }
        t.regex(text, /svc_referral["']?\s*(:|to)\s*["']true["']/, kind);
        t.regex(text, new RegExp(`svc_code["']?\\s*(:|to)\\s*code${UPPERCASED.source}`), kind);
      }
    });

    test(`${label} manual code: trimmed and uppercased before applyCode, error_code casing, premium gate`, (t) => {
      for (const kind of ['manual_code', 'full']) {
        const text = code(run(kind, sdk, variant));
        const upper = text.search(new RegExp(`code = input${UPPERCASED.source}`));
        t.true(upper >= 0, `${kind}: uppercases the typed code`);
        t.true(text.indexOf('applyCode(code)') > upper, `${kind}: then applies it`);
        assertCasing(t, sdk, text, 'error_code');
        assertCasing(t, sdk, text, 'campaign_type');
        t.regex(text, ACCESS_GATE, `${kind}: entitlement OR checkAccess().hasAccess`);
        t.notRegex(text, /rc_grant|rcGrant|grants_access|grantsAccess/, `${kind}: never gated on the provider mirror`);
      }
    });

    test(`${label} attribution: checkAttribution, identify, result casing`, (t) => {
      const text = code(run('attribution', sdk, variant));
      t.regex(text, /Svc\.checkAttribution\(\)/);
      t.regex(text, /Svc\.identify\(/);
      assertCasing(t, sdk, text, 'referral_code');
    });

    test(`${label} report purchase: one reporting path, stored code with the purchase`, (t) => {
      const text = code(run('report_purchase', sdk, variant));
      const full = code(run('full', sdk, variant));
      if (variant === 'host') {
        t.regex(text, /storedCode = (await )?Svc\.getReferralCode\(\)/);
        t.regex(text, /referralCode\s*[:=]\s*storedCode/);
        t.regex(text, /reportPurchase\(/);
        t.true(text.indexOf('getReferralCode()') < text.indexOf('reportPurchase('), 'reads the stored code first');
        assertCasing(t, sdk, text, 'event_type');
        t.regex(text, /retryable/, 'a 503 is retried, not swallowed as success');
      } else {
        t.notRegex(text, /reportPurchase\(/, 'the app never reports itself');
        t.notRegex(full, /reportPurchase\(/, 'nor in the full scaffold');
      }
      if (variant === 'autoCapture') t.regex(text, /syncPurchases\(\)/);
    });
  }
}

test('the base URL follows the server it is given, without a doubled slash', (t) => {
  const tool = REGISTRY_TOOLS.find((x) => x.name === 'svc_scaffold_full')!;
  const cases: [string, string][] = [
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080/api'],
    ['https://a.test//', 'https://a.test/api'],
  ];
  for (const [baseUrl, api] of cases) {
    const out = tool.run({ sdk: 'web' }, { baseUrl }) as unknown as Out & { client_base_url: string };
    t.is(out.client_base_url, api);
    t.true(code(out).includes(`'${api}'`));
  }
});

test('web reads the launch URL code (captureLaunchCode, cleanUrl) and reports its runtime', (t) => {
  const text = code(
    REGISTRY_TOOLS.find((x) => x.name === 'svc_scaffold_install')!.run({ framework: 'capacitor' }, { baseUrl: BASE }) as unknown as Out,
  );
  t.regex(text, /captureLaunchCode: true/);
  t.regex(text, /cleanUrl: true/);
  t.regex(text, /runtime: 'capacitor'/);
});

// The dependency each manifest declares, as the package manager expects it (spec versions).
const MANIFESTS: Record<Sdk, [string, RegExp]> = {
  'react-native': ['package.json', /"@svc\/sdk": "\^1\.6\.1"/],
  android: ['app/build.gradle.kts', /^dependencies \{\n {4}implementation\("com\.svc:attribution:1\.1\.1"\)$/m],
  web: ['package.json', /"@svc\/sdk": "\^1\.6\.1"/],
};
for (const sdk of SDKS) {
  test(`${sdk}: the install manifest declares the SDK at its version`, (t) => {
    for (const variant of variantsOf(sdk)) {
      const [name, line] = MANIFESTS[sdk];
      const manifest = run('install', sdk, variant).files.find((f) => f.file_name === name);
      t.truthy(manifest, `${variant}: ${name}`);
      t.regex(manifest!.code, line, variant);
      if (name.endsWith('.json')) t.notThrows(() => JSON.parse(manifest!.code) as unknown);
    }
  });
}

test(
  "android: settings.gradle.kts names this server's Maven " + 'repository; a local svc dev adds isAllowInsecureProtocol with a comment',
  (t) => {
    const tool = REGISTRY_TOOLS.find((x) => x.name === 'svc_scaffold_install')!;
    const settings = (baseUrl: string) =>
      (tool.run({ sdk: 'android' }, { baseUrl }) as unknown as Out).files.find((f) => f.file_name === 'settings.gradle.kts')!.code;
    const production = settings('https://svc.example.test');
    t.regex(production, /maven \{\n {12}url = uri\("https:\/\/svc\.example\.test\/sdk\/maven\/"\)\n {8}\}/);
    t.false(production.includes('isAllowInsecureProtocol'));
    const local = settings('http://127.0.0.1:8080');
    t.regex(
      local,
      /url = uri\("http:\/\/127\.0\.0\.1:8080\/sdk\/maven\/"\)\n {12}\/\/ A local svc dev serves plain http[\s\S]*?\n {12}isAllowInsecureProtocol = true\n/, // long-line: one regular expression
    );
    // The app itself runs on the emulator, which reaches this machine at 10.0.2.2.
    const config = (tool.run({ sdk: 'android' }, { baseUrl: 'http://127.0.0.1:8080' }) as unknown as Out).files.find((f) =>
      f.file_name.endsWith('.kt'),
    )!.code;
    t.regex(config, /baseUrl = "http:\/\/10\.0\.2\.2:8080\/api"/);
  },
);

for (const sdk of UNAVAILABLE) {
  test(`${sdk}: no package exists, so every scaffold is refused with the client HTTP API as what to do instead`, (t) => {
    for (const kind of ['install', 'init', 'full']) {
      const tool = REGISTRY_TOOLS.find((x) => x.name === `svc_scaffold_${kind}`)!;
      const err = t.throws(() => tool.run({ sdk }, { baseUrl: BASE }), { instanceOf: RegistryInputError });
      t.regex(err.message, /No (Swift|pub) package exists.*client HTTP API/, kind);
    }
  });
}
