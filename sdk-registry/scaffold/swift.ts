// Scaffolds for the iOS SDK (Swift, async/await, StoreKit 2). Results are camelCase (rule 14). The provider is
// RevenueCat's `Purchases` (attributes through `attribution.setAttributes`); store-direct apps report the signed
// JWS of StoreKit 2 and buy with an appAccountToken derived from the user id (rule 7).
import { resultField } from '../registry.js';
import { comment, configFields, pascalCase } from './compose.js';
import { CODE_FALLBACK, CODE_MESSAGES, WHY } from './rule-comments.js';
import type { LanguageScaffolder, ScaffoldContext, ScaffoldFile, Section } from './types.js';

const s = (value: string) => `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
const field = (c: ScaffoldContext, name: string) => resultField(c.sdk, name);

const SVC = 'import SvcAttribution';
const PROVIDER = 'import RevenueCat';

const providerHelpers: Record<string, string> = {
  referralAttributes: `func referralAttributes(_ code: String) -> [String: String] {
    ["svc_code": code.trimmingCharacters(in: .whitespacesAndNewlines).uppercased(), "svc_referral": "true"]
}`,
  syncReferralAttributes: `${comment(WHY.attributes)}
func syncReferralAttributes() async {
    guard let code = await Svc.getReferralCode() else { return }
    Purchases.shared.attribution.setAttributes(referralAttributes(code))
}`,
};

const withProvider = (body: string): Section => ({ imports: ['import Foundation', SVC, PROVIDER], helpers: providerHelpers, body });

function config(c: ScaffoldContext): Section {
  const fields = configFields(c, {
    indent: '    ',
    text: s,
    url: (url) => `URL(string: ${s(url)})!`,
    field: (name, value) => `    ${name === 'baseUrl' ? 'baseURL' : name}: ${value},`,
    setter: '{ attributes in Purchases.shared.attribution.setAttributes(attributes) }',
  });
  // Swift before 6.1 refuses a trailing comma in an argument list.
  const args = fields.join('\n').replace(/,$/, '');
  return {
    imports: ['import Foundation', SVC, ...(c.options.storeDirect ? [] : [PROVIDER])],
    body: `let svcConfig = SvcConfig(\n${args}\n)`,
  };
}

const init = (c: ScaffoldContext): Section => ({
  imports: [SVC],
  usesConfig: true,
  body: `${comment(WHY.init)}
func startSvc() async throws {
    let setup = try await Svc.initialize(svcConfig)
    print("svc: \\(setup.${field(c, 'app_name')}), store_direct \\(setup.${field(c, 'store_direct')}), window \\(setup.${field(c, 'attribution_window_hours')}) h")
}`,
});

function attribution(c: ScaffoldContext): Section {
  const code = field(c, 'referral_code');
  const body = `${comment(WHY.attribution)}
func checkReferral() async -> String? {
    let attribution = await Svc.checkAttribution()
    guard attribution.attributed else { return nil }
    print("referred by \\(attribution.${code} ?? "") via \\(attribution.${field(c, 'attribution_method')} ?? "")")
    return attribution.${code}
}

${comment(WHY.identify)}
func onSignedIn(appUserId: String) async {
    await Svc.identify(appUserId: appUserId)${c.options.storeDirect ? '' : '\n    await syncReferralAttributes()'}
    await Svc.trackEvent(eventType: "signed_in", appUserId: appUserId)
}

${comment(WHY.signOut)}
func onSignedOut() async {
    await Svc.clearAttribution()
}`;
  return c.options.storeDirect ? { imports: [SVC], body } : withProvider(body);
}

const manualCode = (c: ScaffoldContext): Section => ({
  imports: ['import Foundation', SVC],
  body: `${comment(WHY.code)}
func submitReferralCode(_ input: String) async -> String {
    let code = input.trimmingCharacters(in: .whitespacesAndNewlines).uppercased()
    let result = await Svc.applyCode(code)
    if result.applied {
        ${comment(WHY.freeAccess, '        ').trimStart()}
        if result.campaign?.${field(c, 'campaign_type')} == "FREE_ACCESS" { return await hasPremium() ? "Free access unlocked." : "Code saved." }
        return "Code \\(code) applied."
    }
    switch result.${field(c, 'error_code')} ?? "" {
${CODE_MESSAGES.map(([value, text]) => `    case ${s(value)}: return ${s(text)}`).join('\n')}
    default: return result.error ?? ${s(CODE_FALLBACK)}
    }
}`,
});

const premiumGate: LanguageScaffolder['premiumGate'] = {
  store: () => ({
    imports: [SVC, 'import StoreKit'],
    body: `func hasPremium() async -> Bool {
    var entitled = false
    for await result in Transaction.currentEntitlements {
        if case .verified(let transaction) = result, transaction.revocationDate == nil { entitled = true }
    }
    if entitled { return true }
    return await Svc.checkAccess().hasAccess
}`,
  }),
  provider: (c) => ({
    imports: [SVC, PROVIDER],
    helpers: { entitlement: `let entitlement = ${s(c.options.entitlement)}` },
    body: `func hasPremium() async -> Bool {
    let entitled = (try? await Purchases.shared.customerInfo())?.entitlements[entitlement]?.isActive == true
    if entitled { return true }
    return await Svc.checkAccess().hasAccess
}`,
  }),
};

const report: LanguageScaffolder['report'] = {
  provider: () =>
    withProvider(`${comment(WHY.providerReport)}
func beforePurchase(appUserId: String) async {
    await syncReferralAttributes()
    await Svc.trackEvent(eventType: "paywall_viewed", appUserId: appUserId)
}`),
  autoCapture: () => ({
    imports: [SVC],
    body: `${comment(WHY.autoCaptureReport)}
func backSyncPurchases() async {
    let sync = await Svc.syncPurchases()
    print("back-sync: fetched \\(sync.fetched), sent \\(sync.sent), failed \\(sync.failed)")
}`,
  }),
  host: (c) => ({
    imports: [SVC, 'import StoreKit'],
    body: `${comment('Buys with an appAccountToken (UUID, v5 layout, from SHA-256 of the user id) and reports the signed JWS, not decoded JSON.')}
${comment(WHY.report)}
func buyAndReport(_ product: Product, appUserId: String) async throws -> Bool {
    let outcome = try await product.purchase(options: [.appAccountToken(Svc.appAccountToken(for: appUserId))])
    guard case .success(let verification) = outcome, case .verified(let transaction) = verification else { return false }
    let storedCode = await Svc.getReferralCode()
    do {
        let report = try await Svc.reportPurchase(signedTransaction: verification.jwsRepresentation, referralCode: storedCode, appUserId: appUserId)
        print("\\(report.${field(c, 'event_type')}) \\(report.duplicate ? "already recorded" : "recorded") (\\(report.environment))")
        await transaction.finish()
        return true
    } catch let error as SvcError where error.retryable {
        return false
    }
}`,
  }),
};

/** The dependency lines for the manifest the package manager reads. */
const manifest = (c: ScaffoldContext): ScaffoldFile => {
  const provider = !c.options.storeDirect;
  const packages = [
    `.package(url: "https://github.com/svc/svc-ios", from: ${s(c.sdk.version)}),`,
    ...(provider ? ['.package(url: "https://github.com/RevenueCat/purchases-ios-spm", from: "5.0.0"),'] : []),
  ];
  const products = [
    `.product(name: ${s(c.sdk.package.name)}, package: "svc-ios"),`,
    ...(provider ? ['.product(name: "RevenueCat", package: "purchases-ios-spm"),'] : []),
  ];
  const code = [
    '// Or Xcode > File > Add Package Dependencies with the same URLs.',
    'dependencies: [',
    ...packages.map((p) => `    ${p}`),
    '],',
    'targets: [',
    '    .target(name: "App", dependencies: [',
    ...products.map((p) => `        ${p}`),
    '    ]),',
    ']',
    '',
  ];
  return { file_name: 'Package.swift', language: 'swift', code: code.join('\n') };
};

export const swiftScaffolder: LanguageScaffolder = {
  language: 'swift',
  fileName: (stem) => `Svc${pascalCase(stem)}.swift`,
  prelude: '',
  configImport: null,
  manifest,
  config,
  init,
  attribution,
  manualCode,
  premiumGate,
  report,
};
