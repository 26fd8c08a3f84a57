// Every Kotlin scaffold (each kind, each reporting path) compiles against the Android SDK this project builds
// (packages/sdk-android), as test/unit/sdk-registry-typecheck.test.ts type-checks the TypeScript ones: a scaffold
// calling a function the library lacks, or reading a snake_case field, fails here. The Android and store libraries
// the scaffolds call are stubs of the members they use (shapes as the real packages).
import test from 'ava';
import { compileAgainstLibrary } from '../../runtime/android-sdk/build.js';
import { REGISTRY_TOOLS } from '../../sdk-registry/tools.js';
import { androidBuild, androidTest } from '../helpers/android-sdk.js';

const aTest = androidTest(test);

const STUBS: Record<string, string> = {
  'stubs/android.kt': `package android.content
open class Context {
    open fun getSharedPreferences(name: String, mode: Int): SharedPreferences = throw NotImplementedError()
    companion object { const val MODE_PRIVATE = 0 }
}
interface SharedPreferences {
    fun getString(key: String, defValue: String?): String?
    fun edit(): Editor
    interface Editor {
        fun putString(key: String, value: String?): Editor
        fun remove(key: String): Editor
        fun apply()
    }
}`,
  'stubs/log.kt': `package android.util
object Log { @JvmStatic fun i(tag: String, msg: String): Int = 0 }`,
  'stubs/referrer.kt': `package com.android.installreferrer.api
import android.content.Context
class ReferrerDetails(
    val installReferrer: String,
    val referrerClickTimestampSeconds: Long,
    val installBeginTimestampSeconds: Long,
    val installBeginTimestampServerSeconds: Long,
)
interface InstallReferrerStateListener {
    fun onInstallReferrerSetupFinished(responseCode: Int)
    fun onInstallReferrerServiceDisconnected()
}
abstract class InstallReferrerClient {
    abstract fun startConnection(listener: InstallReferrerStateListener)
    abstract fun endConnection()
    abstract val installReferrer: ReferrerDetails
    class Builder(private val context: Context) { fun build(): InstallReferrerClient = throw NotImplementedError() }
    object InstallReferrerResponse { const val OK = 0 }
    companion object { @JvmStatic fun newBuilder(context: Context): Builder = Builder(context) }
}`,
  'stubs/billing.kt': `package com.android.billingclient.api
class Purchase(val purchaseToken: String, val products: List<String>)`,
  'stubs/revenuecat.kt': `package com.revenuecat.purchases
class EntitlementInfo(val isActive: Boolean)
class EntitlementInfos { operator fun get(identifier: String): EntitlementInfo? = null }
class CustomerInfo(val entitlements: EntitlementInfos)
class Purchases {
    fun setAttributes(attributes: Map<String, String?>) {}
    companion object { @JvmStatic val sharedInstance: Purchases = Purchases() }
}
suspend fun Purchases.awaitCustomerInfo(): CustomerInfo = throw NotImplementedError()`,
};

const VARIANTS: Record<string, Record<string, unknown>> = {
  provider: {},
  autoCapture: { store_direct: true },
  host: { reports_purchases_itself: true },
};
const KINDS = ['init', 'attribution', 'manual_code', 'report_purchase', 'full'];

function kotlinFiles(kind: string, options: Record<string, unknown>, baseUrl: string) {
  const tool = REGISTRY_TOOLS.find((x) => x.name === `svc_scaffold_${kind}`)!;
  const out = tool.run({ sdk: 'android', sdk_key: 'it_demoKey123', options }, { baseUrl }) as {
    files: { file_name: string; code: string }[];
  };
  return out.files.filter((f) => f.file_name.endsWith('.kt'));
}

/** Each kind in a package of its own, beside the install step's config it reads (as an app keeps them). */
function sources(baseUrl: string): Record<string, string> {
  const files: Record<string, string> = { ...STUBS };
  for (const [variant, options] of Object.entries(VARIANTS)) {
    for (const kind of KINDS) {
      const pkg = `scaffold.${variant.toLowerCase()}.${kind}`;
      const withConfig =
        kind === 'full'
          ? kotlinFiles(kind, options, baseUrl)
          : [...kotlinFiles('install', options, baseUrl), ...kotlinFiles(kind, options, baseUrl)];
      for (const f of withConfig)
        files[`${pkg.replace(/\./g, '/')}/${f.file_name}`] = f.code.replace(/^package com\.example\.app\.svc$/m, `package ${pkg}`);
    }
  }
  return files;
}

aTest('every Kotlin scaffold compiles against the built Android SDK (production and a local svc dev)', async (t) => {
  const { tc, build } = await androidBuild();
  const files = { ...sources('https://svc.example.test') };
  for (const [rel, code] of Object.entries(sources('http://127.0.0.1:8080')))
    files[rel.replace(/^scaffold\//, 'local/')] = code.replace(/^package scaffold\./m, 'package local.');
  t.true(Object.keys(files).length > 30);
  const compiled = await compileAgainstLibrary(tc, build, 'scaffolds', files);
  t.log(compiled.cached ? 'cached' : 'compiled');
  t.pass();
});

aTest('the check can fail: a scaffold reading a snake_case result field does not compile', async (t) => {
  const { tc, build } = await androidBuild();
  const broken = kotlinFiles('attribution', {}, 'https://svc.example.test')[0]!.code.replace(
    'attribution.referralCode',
    'attribution.referral_code',
  );
  t.true(broken.includes('referral_code'));
  await t.throwsAsync(compileAgainstLibrary(tc, build, 'scaffold-broken', { ...STUBS, 'b/SvcAttribution.kt': broken, ...configOf() }), {
    message: /unresolved reference.*referral_code/i,
  });
});

function configOf(): Record<string, string> {
  return { 'b/SvcConfig.kt': kotlinFiles('install', {}, 'https://svc.example.test')[0]!.code };
}
