// One scaffold tool call: which SDK, which options, which language module, and the answer around the files.
// Where the spec is silent:
// * `reports_purchases_itself` implies store-direct (POST /sdk/purchase only serves store-direct platforms), so
//   `store_direct: false` with it is an input error; on web a store-direct app (TWA or Capacitor shell) always
//   reports itself, since auto capture only starts on an iOS or Android init.
// * A store-direct scaffold has no subscription provider in it: the two validation paths are never both used, so
//   there are no provider attributes to set; the premium gate asks the store instead.
// * The key placeholder must look like an SDK key; the secret kinds (it_mcp_, it_srv_) are refused so an agent
//   cannot paste them into app code.
import type { WebRuntime } from '../aliases.js';
import { inputError } from '../input-error.js';
import { clientBaseUrl, type SdkEntry, type SdkLanguage } from '../registry.js';
import { composeScaffold } from './compose.js';
import { kotlinScaffolder } from './kotlin.js';
import type { LanguageScaffolder, ScaffoldContext, ScaffoldKind, ScaffoldOptions } from './types.js';
import { typescriptScaffolder } from './typescript.js';

/** The languages with a published SDK; iOS (Swift) and Flutter (Dart) have none (registry.ts), so no scaffold. */
const SCAFFOLDERS: Partial<Record<SdkLanguage, LanguageScaffolder>> = {
  typescript: typescriptScaffolder,
  kotlin: kotlinScaffolder,
};

const DEFAULT_SDK_KEY = 'it_YOUR_SDK_KEY';

export interface ScaffoldOptionsInput {
  store_direct?: boolean;
  reports_purchases_itself?: boolean;
  entitlement?: string;
  runtime?: WebRuntime;
}

function resolveOptions(sdk: SdkEntry, input: ScaffoldOptionsInput, aliasRuntime: WebRuntime | undefined): ScaffoldOptions {
  if (input.reports_purchases_itself === true && input.store_direct === false) {
    throw inputError(
      ['options', 'reports_purchases_itself'],
      'reportPurchase is for store-direct platforms only; with ' +
        "store_direct false purchases arrive through the subscription provider's webhook.",
    );
  }
  const storeDirect = input.store_direct ?? input.reports_purchases_itself ?? false;
  const reportsItself = input.reports_purchases_itself ?? (storeDirect && sdk.id === 'web');
  if (storeDirect && sdk.id === 'web' && !reportsItself) {
    throw inputError(
      ['options', 'reports_purchases_itself'],
      'On web, auto capture never starts (init platform web): a store-direct web shell reports purchases itself.',
    );
  }
  return {
    storeDirect,
    reportsItself,
    autoCapture: reportsItself ? false : storeDirect ? true : null,
    entitlement: input.entitlement ?? 'premium',
    runtime: input.runtime ?? aliasRuntime ?? 'browser',
  };
}

function checkSdkKey(key: string | undefined): string {
  if (key === undefined) return DEFAULT_SDK_KEY;
  if (/^it_(mcp|srv)_/.test(key)) {
    throw inputError(['sdk_key'], 'That is a secret key (agent or server purchase key); app code takes the public SDK key it_...');
  }
  if (!/^it_[A-Za-z0-9_-]+$/.test(key)) throw inputError(['sdk_key'], 'The SDK key starts with it_ (letters, digits, _ and - only).');
  return key;
}

export interface ScaffoldRequest {
  sdk: SdkEntry;
  sdkKey?: string;
  options: ScaffoldOptionsInput;
  aliasRuntime?: WebRuntime;
}

const NEXT_TOOLS: Record<ScaffoldKind, string[]> = {
  install: ['svc_scaffold_init'],
  init: ['svc_scaffold_attribution'],
  attribution: ['svc_scaffold_manual_code'],
  manual_code: ['svc_scaffold_report_purchase'],
  report_purchase: ['svc_recommend_validation', 'svc_test_integration'],
  full: ['svc_recommend_validation', 'svc_integration_status', 'svc_test_integration'],
};

export function scaffold(kind: ScaffoldKind, request: ScaffoldRequest, baseUrl: string) {
  const { sdk } = request;
  const lang = SCAFFOLDERS[sdk.language];
  if (!sdk.package || !lang) {
    const why = sdk.unavailable;
    throw inputError(
      ['sdk'],
      `${why?.reason ?? `No ${sdk.name} package exists.`} ${why?.instead ?? ''} Steps: svc://sdk/${sdk.id} (unavailable.steps).`.trim(),
    );
  }
  const context: ScaffoldContext = {
    sdk,
    pkg: sdk.package,
    sdkKey: checkSdkKey(request.sdkKey),
    apiBase: clientBaseUrl(baseUrl),
    options: resolveOptions(sdk, request.options, request.aliasRuntime),
  };
  const o = context.options;
  const here = (text: string) => text.replace(/\{base_url\}/g, baseUrl.replace(/\/+$/, ''));
  return {
    sdk_id: sdk.id,
    sdk_version: sdk.version,
    kind,
    language: sdk.language,
    install_command: here(sdk.package.install_command),
    repository: sdk.package.repository && here(sdk.package.repository),
    client_base_url: context.apiBase,
    options: {
      store_direct: o.storeDirect,
      reports_purchases_itself: o.reportsItself,
      auto_capture: o.autoCapture,
      entitlement: o.entitlement,
      runtime: sdk.id === 'web' ? o.runtime : null,
    },
    result_casing: sdk.result_casing,
    storage_keys: sdk.storage.keys,
    files: composeScaffold(lang, kind, context),
    next_tools: NEXT_TOOLS[kind],
  };
}
