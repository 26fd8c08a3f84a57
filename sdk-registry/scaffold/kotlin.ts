// Scaffolds for the Android SDK (packages/sdk-android: `com.svc:attribution`, suspend functions, Play Billing).
// Results are camelCase (rule 14) and error codes an enum (the spec: Android maps unrecognized values to UNKNOWN).
// The library takes its platform pieces through small interfaces; the init scaffold writes the app's glue
// (SharedPreferences as the KeyValueStore, the Play Install Referrer as the InstallReferrerSource). The provider is
// RevenueCat's `Purchases.sharedInstance`; store-direct apps report the purchase token (plus product, price and
// currency for one-time products) and buy with an obfuscated account id (rule 7). The repository is this server's
// own Maven repository; a local `svc dev` serves plain http, which Gradle refuses unless told
// (isAllowInsecureProtocol), and the emulator reaches the host's loopback at 10.0.2.2.
import { resultField } from '../registry.js';
import { comment, configFields, pascalCase } from './compose.js';
import { CODE_FALLBACK, CODE_MESSAGES, WHY } from './rule-comments.js';
import type { LanguageScaffolder, ScaffoldContext, ScaffoldFile, Section } from './types.js';

const s = (value: string) => `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\$/g, '\\$')}"`;
const field = (c: ScaffoldContext, name: string) => resultField(c.sdk, name);

const SVC = 'import com.svc.attribution.Svc';
const LOG = 'import android.util.Log';
const PROVIDER = 'import com.revenuecat.purchases.Purchases';

// The scaffolds' own comments that are longer than a line of this file.
const NOTE = {
  installReferrer:
    "Rule 13: the referral link carries svc_code and svc_click through Google Play into this string; Play's click and " +
    'install-begin times go with track-install (the click-injection check). The SDK calls it on its own thread.',
  billingFlow:
    'Launch the billing flow with ' +
    'BillingFlowParams.Builder().setObfuscatedAccountId(Svc.obfuscatedAccountId(appUserId)). One-time products also ' +
    'send product id, price (major units) and currency: the store does not report the price.',
};

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

/** The client base URL as the app reaches it: the emulator sees the host's loopback at 10.0.2.2. */
const appBase = (apiBase: string) => apiBase.replace(/^http:\/\/(127\.0\.0\.1|localhost)(?=[:/])/, 'http://10.0.2.2');

function config(c: ScaffoldContext): Section {
  const base = appBase(c.apiBase);
  const emulator =
    base === c.apiBase
      ? []
      : [
          comment(
            `A local svc dev: the emulator reaches this machine at 10.0.2.2, over plain http, which Android ` +
              `refuses unless res/xml/network_security_config.xml permits cleartext for 10.0.2.2 (debug builds only).`,
          ),
        ];
  const fields = configFields(
    { ...c, apiBase: base },
    {
      indent: '    ',
      text: s,
      field: (name, value) => `    ${name} = ${value},`,
      setter: '{ attributes -> Purchases.sharedInstance.setAttributes(attributes) }',
    },
  );
  return {
    imports: ['import com.svc.attribution.SvcConfig', ...(c.options.storeDirect ? [] : [PROVIDER])],
    body: [...emulator, `val svcConfig = SvcConfig(\n${fields.join('\n')}\n)`].join('\n'),
  };
}

/** The app's glue for the library's platform interfaces (Android APIs, so not part of the library). */
const glue: Record<string, string> = {
  preferencesStore: `${comment('The SDK keeps its @svc/* keys here (rule 11); it never clears the file.')}
class PreferencesStore(context: Context) : KeyValueStore {
    private val prefs = context.getSharedPreferences("svc", Context.MODE_PRIVATE)
    override fun get(key: String): String? = prefs.getString(key, null)
    override fun set(key: String, value: String) = prefs.edit().putString(key, value).apply()
    override fun remove(key: String) = prefs.edit().remove(key).apply()
}`,
  playInstallReferrer: `${comment(NOTE.installReferrer)}
class PlayInstallReferrer(private val context: Context) : InstallReferrerSource {
    override fun installReferrer(): String? = details().installReferrer

    override fun details(): InstallReferrerDetails {
        val client = InstallReferrerClient.newBuilder(context).build()
        val done = CountDownLatch(1)
        var answer = InstallReferrerDetails(null)
        client.startConnection(object : InstallReferrerStateListener {
            override fun onInstallReferrerSetupFinished(responseCode: Int) {
                if (responseCode == InstallReferrerClient.InstallReferrerResponse.OK) {
                    runCatching { client.installReferrer }.getOrNull()?.let { d ->
                        answer = InstallReferrerDetails(d.installReferrer, d.referrerClickTimestampSeconds,
                            d.installBeginTimestampSeconds, d.installBeginTimestampServerSeconds)
                    }
                }
                done.countDown()
            }
            override fun onInstallReferrerServiceDisconnected() = done.countDown()
        })
        done.await(5, TimeUnit.SECONDS)
        client.endConnection()
        return answer
    }
}`,
};

const init = (c: ScaffoldContext): Section => ({
  imports: [
    SVC,
    LOG,
    'import android.content.Context',
    'import com.svc.attribution.KeyValueStore',
    'import com.svc.attribution.InstallReferrerDetails',
    'import com.svc.attribution.InstallReferrerSource',
    'import com.android.installreferrer.api.InstallReferrerClient',
    'import com.android.installreferrer.api.InstallReferrerStateListener',
    'import java.util.concurrent.CountDownLatch',
    'import java.util.concurrent.TimeUnit',
  ],
  helpers: glue,
  usesConfig: true,
  body:
    `${comment(WHY.init)}
suspend fun startSvc(context: Context) {
    val setup = Svc.initialize(PreferencesStore(context), svcConfig.copy(installReferrer = PlayInstallReferrer(context)))
    Log.i("svc", "\${setup.${field(c, 'app_name')}}` +
    `, store_direct \${setup.${field(c, 'store_direct')}}, window \${setup.${field(c, 'attribution_window_hours')}} h")
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
  body:
    `${comment(WHY.code)}
suspend fun submitReferralCode(input: String): String {
    val code = input.trim().uppercase()
    val result = Svc.applyCode(code)
    if (result.applied) {
        ${comment(WHY.freeAccess, '        ').trimStart()}
        if (result.campaign?.${field(c, 'campaign_type')} ` +
    `== "FREE_ACCESS") return if (hasPremium()) "Free access unlocked." else "Code saved."
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
${comment(WHY.offerCodes)}
suspend fun beforePurchase(appUserId: String) {
    syncReferralAttributes()
    Svc.trackEvent(eventType = "paywall_viewed", appUserId = appUserId)
}`),
  autoCapture: () => ({
    imports: [SVC, LOG],
    body: `${comment(WHY.autoCaptureReport)}
${comment(WHY.offerCodes)}
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
    body:
      `${comment(NOTE.billingFlow)}
data class OneTimePrice(val price: Double, val currency: String)

${comment(WHY.report)}
${comment(WHY.offerCodes)}
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
    Log.i("svc", "\${report.${field(c, 'event_type')}} ` +
      `\${if (report.duplicate) "already recorded" else "recorded"} (\${report.environment})")
    return true
}`,
  }),
};

/** settings.gradle.kts with this server's Maven repository, then the dependency lines of app/build.gradle.kts. */
const manifest = (c: ScaffoldContext): ScaffoldFile[] => {
  const repository = c.pkg.repository!.replace('{base_url}', c.apiBase.replace(/\/api$/, ''));
  const insecure = repository.startsWith('http://');
  const repo = [
    '        maven {',
    `            url = uri("${repository}")`,
    ...(insecure
      ? [
          comment(
            `A local svc dev serves plain http, which Gradle refuses without this line. ` +
              `Production: ${repository.replace(/^http:\/\/[^/]+/, 'https://YOUR_SVC_HOST')} and no such line.`,
            '            ',
          ),
          '            isAllowInsecureProtocol = true',
        ]
      : []),
    '        }',
  ];
  const settings = [
    'dependencyResolutionManagement {',
    '    repositories {',
    '        google()',
    '        mavenCentral()',
    comment(`${c.pkg.name} ${c.pkg.version}: this server's Maven repository.`, '        '),
    ...repo,
    '    }',
    '}',
  ];
  const second = c.options.storeDirect ? 'com.android.billingclient:billing-ktx:7.1.1' : 'com.revenuecat.purchases:purchases:8.10.0';
  const deps = [`${c.pkg.name}:${c.pkg.version}`, 'com.android.installreferrer:installreferrer:2.2', second];
  return [
    { file_name: 'settings.gradle.kts', language: 'kotlin', code: `${settings.join('\n')}\n` },
    {
      file_name: c.pkg.manifest_file,
      language: 'kotlin',
      code: `dependencies {\n${deps.map((d) => `    implementation("${d}")`).join('\n')}\n}\n`,
    },
  ];
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
