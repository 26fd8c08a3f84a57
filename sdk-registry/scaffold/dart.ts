// Scaffolds for the Flutter SDK (Dart). Results are camelCase (rule 14). The provider is RevenueCat's
// purchases_flutter; store-direct apps hand over what their store plugin gives them (iOS: the StoreKit 2 JWS,
// Android: the purchase token), since plugins differ in where they expose it.
import { resultField } from '../registry.js';
import { comment, configFields } from './compose.js';
import { CODE_FALLBACK, CODE_MESSAGES, WHY } from './rule-comments.js';
import type { LanguageScaffolder, ScaffoldContext, ScaffoldFile, Section } from './types.js';

const s = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\$/g, '\\$')}'`;
const field = (c: ScaffoldContext, name: string) => resultField(c.sdk, name);

const SVC = "import 'package:svc_attribution/svc_attribution.dart';";
const PROVIDER = "import 'package:purchases_flutter/purchases_flutter.dart';";
const DEBUG = "import 'package:flutter/foundation.dart';";

const providerHelpers: Record<string, string> = {
  referralAttributes: `Map<String, String> referralAttributes(String code) =>
    {'svc_code': code.trim().toUpperCase(), 'svc_referral': 'true'};`,
  syncReferralAttributes: `${comment(WHY.attributes)}
Future<void> syncReferralAttributes() async {
  final code = await Svc.getReferralCode();
  if (code != null) await Purchases.setAttributes(referralAttributes(code));
}`,
};

const withProvider = (body: string, imports: string[] = []): Section => ({
  imports: [SVC, PROVIDER, ...imports],
  helpers: providerHelpers,
  body,
});

function config(c: ScaffoldContext): Section {
  const fields = configFields(c, {
    indent: '  ',
    text: s,
    field: (name, value) => `  ${name}: ${value},`,
    setter: '(attributes) => Purchases.setAttributes(attributes)',
  });
  return { imports: [SVC, ...(c.options.storeDirect ? [] : [PROVIDER])], body: `final svcConfig = SvcConfig(\n${fields.join('\n')}\n);` };
}

const init = (c: ScaffoldContext): Section => ({
  imports: [SVC, DEBUG],
  usesConfig: true,
  body: `${comment(WHY.init)}
Future<void> startSvc() async {
  final setup = await Svc.initialize(svcConfig);
  debugPrint('svc: \${setup.${field(c, 'app_name')}}, store_direct \${setup.${field(c, 'store_direct')}}, window \${setup.${field(c, 'attribution_window_hours')}} h');
}`,
});

function attribution(c: ScaffoldContext): Section {
  const code = field(c, 'referral_code');
  const body = `${comment(WHY.attribution)}
Future<String?> checkReferral() async {
  final attribution = await Svc.checkAttribution();
  if (!attribution.attributed) return null;
  debugPrint('referred by \${attribution.${code}} via \${attribution.${field(c, 'attribution_method')}}');
  return attribution.${code};
}

${comment(WHY.identify)}
Future<void> onSignedIn(String appUserId) async {
  await Svc.identify(appUserId);${c.options.storeDirect ? '' : '\n  await syncReferralAttributes();'}
  await Svc.trackEvent(eventType: 'signed_in', appUserId: appUserId);
}

${comment(WHY.signOut)}
Future<void> onSignedOut() async {
  await Svc.clearAttribution();
}`;
  return c.options.storeDirect ? { imports: [SVC, DEBUG], body } : withProvider(body, [DEBUG]);
}

const manualCode = (c: ScaffoldContext): Section => ({
  imports: [SVC],
  body: `${comment(WHY.code)}
Future<String> submitReferralCode(String input) async {
  final code = input.trim().toUpperCase();
  final result = await Svc.applyCode(code);
  if (result.applied) {
    ${comment(WHY.freeAccess, '    ').trimStart()}
    if (result.campaign?.${field(c, 'campaign_type')} == 'FREE_ACCESS') return await hasPremium() ? 'Free access unlocked.' : 'Code saved.';
    return 'Code $code applied.';
  }
  switch (result.${field(c, 'error_code')}) {
${CODE_MESSAGES.map(([value, text]) => `    case ${s(value)}: return ${s(text)};`).join('\n')}
    default: return result.error ?? ${s(CODE_FALLBACK)};
  }
}`,
});

const premiumGate: LanguageScaffolder['premiumGate'] = {
  store: () => ({
    imports: [SVC],
    body: `${comment("Pass your store plugin's entitlement check (an active, verified purchase).")}
Future<bool> hasPremium([Future<bool> Function()? hasStoreEntitlement]) async {
  final entitled = hasStoreEntitlement != null && await hasStoreEntitlement();
  return entitled || (await Svc.checkAccess()).hasAccess;
}`,
  }),
  provider: (c) => ({
    imports: [SVC, PROVIDER],
    helpers: { entitlement: `const entitlement = ${s(c.options.entitlement)};` },
    body: `Future<bool> hasPremium() async {
  final info = await Purchases.getCustomerInfo();
  final entitled = info.entitlements.active.containsKey(entitlement);
  return entitled || (await Svc.checkAccess()).hasAccess;
}`,
  }),
};

const report: LanguageScaffolder['report'] = {
  provider: () =>
    withProvider(`${comment(WHY.providerReport)}
Future<void> beforePurchase(String appUserId) async {
  await syncReferralAttributes();
  await Svc.trackEvent(eventType: 'paywall_viewed', appUserId: appUserId);
}`),
  autoCapture: () => ({
    imports: [SVC, DEBUG],
    body: `${comment(WHY.autoCaptureReport)}
Future<void> backSyncPurchases() async {
  final sync = await Svc.syncPurchases();
  debugPrint('back-sync: fetched \${sync.fetched}, sent \${sync.sent}, failed \${sync.failed}');
}`,
  }),
  host: (c) => ({
    imports: [SVC, DEBUG],
    body: `${comment('From your store plugin: iOS the StoreKit 2 signed transaction (JWS string, not decoded JSON), Android the purchase token and, for one-time products, product id, price (major units) and currency. Buy with appAccountToken (iOS) or an obfuscated account id (Android) from the user id.')}
class OneTimePrice {
  const OneTimePrice(this.productId, this.price, this.currency);
  final String productId;
  final double price;
  final String currency;
}

${comment(WHY.report)}
Future<bool> reportStorePurchase({
  required String platform,
  required String appUserId,
  String? signedTransaction,
  String? purchaseToken,
  OneTimePrice? oneTime,
}) async {
  final storedCode = await Svc.getReferralCode();
  try {
    final report = await Svc.reportPurchase(PurchaseReport(
      platform: platform,
      signedTransaction: signedTransaction,
      purchaseToken: purchaseToken,
      productId: oneTime?.productId,
      price: oneTime?.price,
      currency: oneTime?.currency,
      referralCode: storedCode,
      appUserId: appUserId,
    ));
    debugPrint('\${report.${field(c, 'event_type')}} \${report.duplicate ? 'already recorded' : 'recorded'} (\${report.environment})');
    return true;
  } on SvcException catch (e) {
    if (e.retryable) return false;
    rethrow;
  }
}`,
  }),
};

/** The dependency lines for the manifest the package manager reads. */
const manifest = (c: ScaffoldContext): ScaffoldFile => {
  const deps = [`${c.sdk.package.name}: ^${c.sdk.version}`, ...(c.options.storeDirect ? [] : ['purchases_flutter: ^8.0.0'])];
  return { file_name: c.sdk.package.manifest_file, language: 'yaml', code: `dependencies:\n${deps.map((d) => `  ${d}`).join('\n')}\n` };
};

export const dartScaffolder: LanguageScaffolder = {
  language: 'dart',
  fileName: (stem) => `lib/${['svc', stem].filter(Boolean).join('_')}.dart`,
  prelude: '',
  configImport: "import 'svc_config.dart';",
  manifest,
  config,
  init,
  attribution,
  manualCode,
  premiumGate,
  report,
};
