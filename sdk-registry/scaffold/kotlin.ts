// Scaffolds for the Android SDK (Kotlin, coroutines, Play Billing). Results are camelCase (rule 14) and error
// codes an enum (the spec: Android maps unrecognized values to UNKNOWN). The provider is RevenueCat's
// `Purchases.sharedInstance`; store-direct apps report the purchase token (plus product, price and currency for
// one-time products) and buy with an obfuscated account id (rule 7).
import { resultField } from '../registry.js';
import { comment, configFields, pascalCase } from './compose.js';
import { CODE_FALLBACK, CODE_MESSAGES, WHY } from './rule-comments.js';
import type { LanguageScaffolder, ScaffoldContext, ScaffoldFile, Section } from './types.js';

const s = (value: string) => `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\$/g, '\\$')}"`;
const field = (c: ScaffoldContext, name: string) => resultField(c.sdk, name);

const SVC = 'import com.svc.attribution.Svc';
const LOG = 'import android.util.Log';
const PROVIDER = 'import com.revenuecat.purchases.Purchases';

const providerHelpers: Record<string, string> = {
  referralAttributes: `fun referralAttributes(code: String): Map<String, String> =
    mapOf("svc_code" to code.trim().uppercase(), "svc_referral" to "true")`,
  syncReferralAttributes: `${comment(WHY.attributes)}
suspend fun syncReferralAttributes() {
    val code = Svc.getReferralCode() ?: return
    Purchases.sharedInstance.setAttributes(referralAttributes(code))
}`,
};

const withProvider = (body: string, imports: string[] = []): Section => ({
  imports: [SVC, PROVIDER, ...imports],
  helpers: providerHelpers,
  body,
});

function config(c: ScaffoldContext): Section {
  const fields = configFields(c, {
    indent: '    ',
    text: s,
    field: (name, value) => `    ${name} = ${value},`,
    setter: '{ attributes -> Purchases.sharedInstance.setAttributes(attributes) }',
  });
  return {
    imports: ['import com.svc.attribution.SvcConfig', ...(c.options.storeDirect ? [] : [PROVIDER])],
    body: `val svcConfig = SvcConfig(\n${fields.join('\n')}\n)`,
  };
}

const init = (c: ScaffoldContext): Section => ({
  imports: [SVC, LOG, 'import android.content.Context'],
  usesConfig: true,
  body: `${comment(WHY.init)}
suspend fun startSvc(context: Context) {
    val setup = Svc.initialize(context, svcConfig)
    Log.i("svc", "\${setup.${field(c, 'app_name')}}, store_direct \${setup.${field(c, 'store_direct')}}, window \${setup.${field(c, 'attribution_window_hours')}} h")
}`,
});

function attribution(c: ScaffoldContext): Section {
  const code = field(c, 'referral_code');
  const body = `${comment(WHY.attribution)}
suspend fun checkReferral(): String? {
    val attribution = Svc.checkAttribution()
    if (!attribution.attributed) return null
    Log.i("svc", "referred by \${attribution.${code}} via \${attribution.${field(c, 'attribution_method')}}")
    return attribution.${code}
}

${comment(WHY.identify)}
suspend fun onSignedIn(appUserId: String) {
    Svc.identify(appUserId)${c.options.storeDirect ? '' : '\n    syncReferralAttributes()'}
    Svc.trackEvent(eventType = "signed_in", appUserId = appUserId)
}

${comment(WHY.signOut)}
suspend fun onSignedOut() {
    Svc.clearAttribution()
}`;
  return c.options.storeDirect ? { imports: [SVC, LOG], body } : withProvider(body, [LOG]);
}

const manualCode = (c: ScaffoldContext): Section => ({
  imports: [SVC, 'import com.svc.attribution.CodeErrorCode'],
  body: `${comment(WHY.code)}
suspend fun submitReferralCode(input: String): String {
    val code = input.trim().uppercase()
    val result = Svc.applyCode(code)
    if (result.applied) {
        ${comment(WHY.freeAccess, '        ').trimStart()}
        if (result.campaign?.${field(c, 'campaign_type')} == "FREE_ACCESS") return if (hasPremium()) "Free access unlocked." else "Code saved."
        return "Code $code applied."
    }
    return when (result.${field(c, 'error_code')}) {
${CODE_MESSAGES.map(([value, text]) => `        CodeErrorCode.${value} -> ${s(text)}`).join('\n')}
        else -> result.error ?: ${s(CODE_FALLBACK)}
    }
}`,
});

const premiumGate: LanguageScaffolder['premiumGate'] = {
  store: () => ({
    imports: [SVC],
    body: `${comment('Pass your Play Billing check (BillingClient.queryPurchasesAsync finds an active purchase).')}
suspend fun hasPremium(hasPlayEntitlement: suspend () -> Boolean = { false }): Boolean {
    val entitled = hasPlayEntitlement()
    return entitled || Svc.checkAccess().hasAccess
}`,
  }),
  provider: (c) => ({
    imports: [SVC, PROVIDER, 'import com.revenuecat.purchases.awaitCustomerInfo'],
    helpers: { entitlement: `const val ENTITLEMENT = ${s(c.options.entitlement)}` },
    body: `suspend fun hasPremium(): Boolean {
    val info = runCatching { Purchases.sharedInstance.awaitCustomerInfo() }.getOrNull()
    val entitled = info?.entitlements?.get(ENTITLEMENT)?.isActive == true
    return entitled || Svc.checkAccess().hasAccess
}`,
  }),
};

const report: LanguageScaffolder['report'] = {
  provider: () =>
    withProvider(`${comment(WHY.providerReport)}
suspend fun beforePurchase(appUserId: String) {
    syncReferralAttributes()
    Svc.trackEvent(eventType = "paywall_viewed", appUserId = appUserId)
}`),
  autoCapture: () => ({
    imports: [SVC, LOG],
    body: `${comment(WHY.autoCaptureReport)}
suspend fun backSyncPurchases() {
    val sync = Svc.syncPurchases()
    Log.i("svc", "back-sync: fetched \${sync.fetched}, sent \${sync.sent}, failed \${sync.failed}")
}`,
  }),
  host: (c) => ({
    imports: [
      SVC,
      LOG,
      'import com.svc.attribution.PurchaseReport',
      'import com.svc.attribution.SvcException',
      'import com.android.billingclient.api.Purchase',
    ],
    body: `${comment('Launch the billing flow with BillingFlowParams.Builder().setObfuscatedAccountId(Svc.obfuscatedAccountId(appUserId)). One-time products also send product id, price (major units) and currency: the store does not report the price.')}
data class OneTimePrice(val price: Double, val currency: String)

${comment(WHY.report)}
suspend fun reportPlayPurchase(purchase: Purchase, appUserId: String, oneTime: OneTimePrice? = null): Boolean {
    val storedCode = Svc.getReferralCode()
    val report = try {
        Svc.reportPurchase(
            PurchaseReport(
                purchaseToken = purchase.purchaseToken,
                productId = if (oneTime != null) purchase.products.first() else null,
                price = oneTime?.price,
                currency = oneTime?.currency,
                referralCode = storedCode,
                appUserId = appUserId,
            ),
        )
    } catch (e: SvcException) {
        if (e.retryable) return false
        throw e
    }
    Log.i("svc", "\${report.${field(c, 'event_type')}} \${if (report.duplicate) "already recorded" else "recorded"} (\${report.environment})")
    return true
}`,
  }),
};

/** The dependency lines for the manifest the package manager reads. */
const manifest = (c: ScaffoldContext): ScaffoldFile => {
  const second = c.options.storeDirect ? 'com.android.billingclient:billing-ktx:7.1.1' : 'com.revenuecat.purchases:purchases:8.10.0';
  const lines = [`${c.sdk.package.name}:${c.sdk.version}`, second].map((dep) => `    implementation("${dep}")`);
  return { file_name: c.sdk.package.manifest_file, language: 'kotlin', code: `dependencies {\n${lines.join('\n')}\n}\n` };
};

export const kotlinScaffolder: LanguageScaffolder = {
  language: 'kotlin',
  fileName: (stem) => `Svc${pascalCase(stem)}.kt`,
  prelude: 'package com.example.app.svc',
  configImport: null,
  manifest,
  config,
  init,
  attribution,
  manualCode,
  premiumGate,
  report,
};
