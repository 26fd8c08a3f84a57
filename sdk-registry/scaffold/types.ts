// Shapes shared by the scaffold modules: what a language module produces (sections of code) and what a scaffold
// tool returns (files). A kind is a step of the integration; `full` is every step in one file.
import type { WebRuntime } from '../aliases.js';
import type { SdkEntry, SdkPackage } from '../registry.js';

export const SCAFFOLD_KINDS = ['install', 'init', 'attribution', 'manual_code', 'report_purchase', 'full'] as const;
export type ScaffoldKind = (typeof SCAFFOLD_KINDS)[number];

export interface ScaffoldOptions {
  /** The platform validates purchases store-direct (no subscription provider in the app). */
  storeDirect: boolean;
  /** The host calls reportPurchase itself, so autoCapture is false (rule 8). */
  reportsItself: boolean;
  /** The config value to write: true, false, or null to leave it out (never starts off store-direct). */
  autoCapture: boolean | null;
  entitlement: string;
  runtime: WebRuntime;
}

export interface ScaffoldContext {
  sdk: SdkEntry;
  /** The SDK's package (scaffolds exist only for SDKs that have one). */
  pkg: SdkPackage;
  sdkKey: string;
  /** `{baseUrl}/api` of this server. */
  apiBase: string;
  options: ScaffoldOptions;
}

export interface ScaffoldFile {
  file_name: string;
  language: string;
  code: string;
}

/**
 * A piece of one source file. Helpers are named so a file that combines sections (`full`) declares each once;
 * `usesConfig` marks the sections that read the config the install step wrote.
 */
export interface Section {
  imports?: string[];
  helpers?: Record<string, string>;
  body: string;
  usesConfig?: boolean;
}

export type SectionBuilder = (c: ScaffoldContext) => Section;

/** How purchases reach the service from this app: the provider's webhook, auto capture, or the host's own call. */
export type ReportVariant = 'provider' | 'autoCapture' | 'host';

export interface LanguageScaffolder {
  language: string;
  /** Source file name from a stem of FILE_STEMS ('' for the full file), in the language's naming habit. */
  fileName(stem: string): string;
  /** What a file starts with before its imports (Kotlin's package line). */
  prelude: string;
  /** Combines import lines naming the same module (TypeScript allows one binding per name). */
  mergeImports?: (lines: string[]) => string[];
  /** How a kind's file reaches the config the install step wrote; null when the language shares one module. */
  configImport: string | null;
  /** The package manager's files (Kotlin: settings.gradle.kts with the repository, then app/build.gradle.kts). */
  manifest(c: ScaffoldContext): ScaffoldFile[];
  config: SectionBuilder;
  init: SectionBuilder;
  /** checkAttribution at launch, identify after sign-in, clearAttribution at sign-out. */
  attribution: SectionBuilder;
  manualCode: SectionBuilder;
  /** The premium gate's code; the entitlement comes from the provider or, store-direct, from the store. */
  premiumGate: Record<'provider' | 'store', SectionBuilder>;
  report: Record<ReportVariant, SectionBuilder>;
}
