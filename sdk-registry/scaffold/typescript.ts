// Scaffolds for the two TypeScript SDKs (React Native, web). They share the declared interface
// (the SDK package, packages/sdk) and snake_case results, so one module writes both; what differs is the subscription
// provider's client (react-native-purchases in the app; on the web the developer's server writes attributes,
// because the provider's REST API needs its secret key) and the web-only launch-URL options.
import { resultField, type SdkEntry } from '../registry.js';
import { comment, configFields } from './compose.js';
import { CODE_FALLBACK, CODE_MESSAGES, WHY } from './rule-comments.js';
import { mergeTypescriptImports } from './typescript-imports.js';
import type { LanguageScaffolder, ScaffoldContext, ScaffoldFile, Section } from './types.js';

// The scaffolds' own comments that are longer than a line of this file.
const NOTE = {
  purchaseSource:
    'Your store library (react-native-iap, expo-iap, a Capacitor plugin...) seen through two calls: ' +
    'map its purchases to { platform, signedTransaction } (iOS) or { platform, purchaseToken } (Android).',
  storePurchase:
    'What your store library hands over after a purchase: iOS the StoreKit 2 signed transaction (JWS string, ' +
    'not decoded JSON), Android the purchase token and, for one-time products, product id, price (major ' +
    'units) and currency. Set appAccountToken (iOS) or obfuscatedAccountId (Android) from the user id when buying.',
};

const q = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** The provider's client: what writes the attributes and what reads the entitlement, each with its imports. */
interface Provider {
  setterImports: string[];
  setter: string;
  entitledImports: string[];
  entitled: string;
}

const RN_PURCHASES = "import Purchases from 'react-native-purchases';";

const PROVIDERS: Record<'react-native' | 'web', Provider> = {
  'react-native': {
    setterImports: [RN_PURCHASES],
    entitledImports: [RN_PURCHASES],
    setter: `async function setProviderAttributes(attributes: SubscriberAttributes): Promise<void> {
  await Purchases.setAttributes(attributes);
}`,
    entitled: 'const info = await Purchases.getCustomerInfo();\n  const entitled = info.entitlements.active[ENTITLEMENT] !== undefined;',
  },
  web: {
    setterImports: [],
    entitledImports: ["import { Purchases } from '@revenuecat/purchases-js';"],
    setter: `${comment("The provider's REST API needs its secret key, so the developer's own server writes the attributes.")}
async function setProviderAttributes(attributes: SubscriberAttributes): Promise<void> {
  await fetch('/billing/subscriber-attributes', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(attributes),
  });
}`,
    entitled: 'const entitled = await Purchases.getSharedInstance().isEntitledTo(ENTITLEMENT);',
  },
};

const NATIVE_IMPORTS = [
  "import AsyncStorage from '@react-native-async-storage/async-storage';",
  "import { Platform } from 'react-native';",
];

/** Auto capture (rule 1) reads the store through the host's purchase library; the SDK ships no native module. */
const PURCHASE_SOURCE = `${comment(NOTE.purchaseSource)}
const storePurchaseSource: PurchaseSource = {
  async getPurchases() {
    return [];
  },
  onPurchase(listener) {
    void listener;
    return () => undefined;
  },
};`;

function flavor(sdk: SdkEntry): 'react-native' | 'web' {
  return sdk.id === 'web' ? 'web' : 'react-native';
}

const svcImport = (c: ScaffoldContext, names: string[] = []) =>
  `import Svc${names.length ? `, { ${names.map((n) => `type ${n}`).join(', ')} }` : ''} from '${c.pkg.import_from}';`;

const providerHelpers = (c: ScaffoldContext): Record<string, string> => ({
  setProviderAttributes: PROVIDERS[flavor(c.sdk)].setter,
  referralAttributes: `function referralAttributes(code: string): SubscriberAttributes {
  return { svc_code: code.trim().toUpperCase(), svc_referral: 'true' };
}`,
  syncReferralAttributes: `${comment(WHY.attributes)}
export async function syncReferralAttributes(): Promise<void> {
  const code = await Svc.getReferralCode();
  if (code) await setProviderAttributes(referralAttributes(code));
}`,
});

function providerSection(c: ScaffoldContext, body: string): Section {
  return {
    imports: [svcImport(c, ['SubscriberAttributes']), ...PROVIDERS[flavor(c.sdk)].setterImports],
    helpers: providerHelpers(c),
    body,
  };
}

function config(c: ScaffoldContext): Section {
  const o = c.options;
  const lines = [
    ...configFields(c, { indent: '  ', field: (name, value) => `  ${name}: ${value},`, text: q, setter: 'setProviderAttributes' }),
    ...(c.sdk.id === 'web'
      ? [
          comment('Rule 13: read svc_code and svc_click from the launch URL, then remove them from the address bar.', '  '),
          '  captureLaunchCode: true,',
          '  cleanUrl: true,',
          `  runtime: ${q(o.runtime)},`,
          ...(['twa', 'capacitor', 'cordova'].includes(o.runtime)
            ? [comment("On Android, also pass the Play install-referrer string (installReferrer) from your shell's referrer plugin.", '  ')]
            : []),
        ]
      : [
          comment('The SDK has no native module: it keeps its @svc/* keys in the AsyncStorage you pass and needs Platform.OS.', '  '),
          '  storage: AsyncStorage,',
          "  platform: Platform.OS === 'android' ? 'android' : 'ios',",
        ]),
    ...(o.storeDirect && o.autoCapture === true ? ['  purchaseSource: storePurchaseSource,'] : []),
  ];
  const body = `export const svcConfig: SvcConfig = {\n${lines.join('\n')}\n};`;
  const typeNames = [
    'SvcConfig',
    ...(o.storeDirect ? [] : ['SubscriberAttributes']),
    ...(o.storeDirect && o.autoCapture === true ? ['PurchaseSource'] : []),
  ];
  const imports = [`import type { ${typeNames.join(', ')} } from '${c.pkg.import_from}';`, ...(c.sdk.id === 'web' ? [] : NATIVE_IMPORTS)];
  if (o.storeDirect) return { imports, body, helpers: o.autoCapture === true ? { storePurchaseSource: PURCHASE_SOURCE } : {} };
  return {
    imports: [...imports, ...PROVIDERS[flavor(c.sdk)].setterImports],
    helpers: { setProviderAttributes: PROVIDERS[flavor(c.sdk)].setter },
    body,
  };
}

function init(c: ScaffoldContext): Section {
  return {
    imports: [svcImport(c)],
    usesConfig: true,
    body: `${comment(WHY.init)}
export async function startSvc(): Promise<void> {
  const init = await Svc.initialize(svcConfig);
  console.log(\`svc: \${init.app_name}, store_direct \${init.store_direct}, window \${init.attribution_window_hours} h\`);
}`,
  };
}

function attribution(c: ScaffoldContext): Section {
  const f = (name: string) => resultField(c.sdk, name);
  const body = `${comment(WHY.attribution)}
export async function checkReferral(): Promise<string | null> {
  const attribution = await Svc.checkAttribution();
  if (!attribution.attributed) return null;
  console.log(\`referred by \${attribution.${f('referral_code')}} via \${attribution.${f('attribution_method')}}\`);
  return attribution.${f('referral_code')} ?? null;
}

${comment(WHY.identify)}
export async function onSignedIn(appUserId: string): Promise<void> {
  await Svc.identify(appUserId);${c.options.storeDirect ? '' : '\n  await syncReferralAttributes();'}
  await Svc.trackEvent({ eventType: 'signed_in', appUserId });
}

${comment(WHY.signOut)}
export async function onSignedOut(): Promise<void> {
  await Svc.clearAttribution();
}`;
  return c.options.storeDirect ? { imports: [svcImport(c)], body } : providerSection(c, body);
}

function manualCode(c: ScaffoldContext): Section {
  const f = (name: string) => resultField(c.sdk, name);
  return {
    imports: [svcImport(c)],
    body: `${comment(WHY.code)}
export async function submitReferralCode(input: string): Promise<string> {
  const code = input.trim().toUpperCase();
  const result = await Svc.applyCode(code);
  if (result.applied) {
    ${comment(WHY.freeAccess, '    ').trimStart()}
    if (result.campaign?.${f('campaign_type')} === 'FREE_ACCESS') return (await hasPremium()) ? 'Free access unlocked.' : 'Code saved.';
    return \`Code \${code} applied\${result.campaign ? \`: \${result.campaign.name}\` : ''}.\`;
  }
  switch (result.${f('error_code')}) {
${CODE_MESSAGES.map(([code, text]) => `    case ${q(code)}: return ${q(text)};`).join('\n')}
    default: return result.error ?? ${q(CODE_FALLBACK)};
  }
}`,
  };
}

const premiumGate: LanguageScaffolder['premiumGate'] = {
  store: (c) => ({
    imports: [svcImport(c)],
    body: `${comment("Pass your store library's entitlement check (StoreKit, Play Billing or their React Native/web wrappers).")}
export async function hasPremium(hasStoreEntitlement: () => Promise<boolean> = async () => false): Promise<boolean> {
  const entitled = await hasStoreEntitlement();
  return entitled || (await Svc.checkAccess()).hasAccess;
}`,
  }),
  provider: (c) => ({
    imports: [svcImport(c), ...PROVIDERS[flavor(c.sdk)].entitledImports],
    helpers: { entitlement: `const ENTITLEMENT = ${q(c.options.entitlement)};` },
    body: `export async function hasPremium(): Promise<boolean> {
  ${PROVIDERS[flavor(c.sdk)].entitled}
  return entitled || (await Svc.checkAccess()).hasAccess;
}`,
  }),
};

const report: LanguageScaffolder['report'] = {
  provider: (c) =>
    providerSection(
      c,
      `${comment(WHY.providerReport)}
${comment(WHY.offerCodes)}
export async function beforePurchase(appUserId: string): Promise<void> {
  await syncReferralAttributes();
  await Svc.trackEvent({ eventType: 'paywall_viewed', appUserId });
}`,
    ),
  autoCapture: (c) => ({
    imports: [svcImport(c)],
    body: `${comment(WHY.autoCaptureReport)}
${comment(WHY.offerCodes)}
export async function backSyncPurchases(): Promise<void> {
  const sync = await Svc.syncPurchases();
  console.log(\`back-sync: fetched \${sync.fetched}, sent \${sync.sent}, failed \${sync.failed}\`);
}`,
  }),
  host: (c) => ({
    imports: [`import Svc, { SvcError } from '${c.pkg.import_from}';`],
    body:
      `${comment(NOTE.storePurchase)}
export interface StorePurchase {
  platform: 'ios' | 'android';
  jws?: string;
  purchaseToken?: string;
  oneTime?: { productId: string; price: number; currency: string };
}

${comment(WHY.report)}
${comment(WHY.offerCodes)}
export async function reportStorePurchase(purchase: StorePurchase, appUserId: string): Promise<boolean> {
  const storedCode = await Svc.getReferralCode();
  try {
    const report = await Svc.reportPurchase({
      platform: purchase.platform,
      signedTransaction: purchase.jws,
      purchaseToken: purchase.purchaseToken,
      productId: purchase.oneTime?.productId,
      price: purchase.oneTime?.price,
      currency: purchase.oneTime?.currency,
      referralCode: storedCode ?? undefined,
      appUserId,
    });
    console.log(\`\${report.${resultField(c.sdk, 'event_type')}} ` +
      `\${report.duplicate ? 'already recorded' : 'recorded'} (\${report.environment})\`);
    return true;
  } catch (error) {
    if (error instanceof SvcError && error.retryable) return false;
    throw error;
  }
}`,
  }),
};

/** The dependency lines for the manifest the package manager reads. */
const manifest = (c: ScaffoldContext): ScaffoldFile[] => {
  const deps: Record<string, string> = { [c.pkg.name]: `^${c.pkg.version}` };
  if (c.sdk.id === 'react-native') deps['@react-native-async-storage/async-storage'] = '^2.0.0';
  if (!c.options.storeDirect) deps[c.sdk.id === 'web' ? '@revenuecat/purchases-js' : 'react-native-purchases'] = '*';
  return [{ file_name: 'package.json', language: 'json', code: `${JSON.stringify({ dependencies: deps }, null, 2)}\n` }];
};

export const typescriptScaffolder: LanguageScaffolder = {
  language: 'typescript',
  fileName: (stem) => `${['svc', stem].filter(Boolean).join('-').replace(/_/g, '-')}.ts`,
  prelude: '',
  mergeImports: mergeTypescriptImports,
  configImport: "import { svcConfig } from './svc-config';",
  manifest,
  config,
  init,
  attribution,
  manualCode,
  premiumGate,
  report,
};
