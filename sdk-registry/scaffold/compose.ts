// Builds a scaffold's files from a language module's sections. Each kind is a small file of its own that reads the
// config the install step wrote; `full` puts every section, the config included, into one file.
import { CONTRACT_VERSION } from '../registry.js';
import { autoCaptureWhy, storageKeysText, WHY } from './rule-comments.js';
import type { LanguageScaffolder, ReportVariant, ScaffoldContext, ScaffoldFile, ScaffoldKind, Section } from './types.js';

/** Wraps prose into `//` comment lines (all four languages) of at most ~110 characters. */
export function comment(text: string, indent = ''): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + word.length > 105) {
      lines.push(line);
      line = '';
    }
    line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.map((l) => `${indent}// ${l}`).join('\n');
}

function renderFile(lang: LanguageScaffolder, sections: Section[], header: string[]): string {
  const lines = [...new Set(sections.flatMap((s) => s.imports ?? []))];
  const imports = lang.mergeImports ? lang.mergeImports(lines) : lines;
  const helpers = new Map<string, string>();
  for (const s of sections) for (const [name, code] of Object.entries(s.helpers ?? {})) if (!helpers.has(name)) helpers.set(name, code);
  const parts = [
    header.map((h) => comment(h)).join('\n'),
    [lang.prelude, imports.join('\n')].filter(Boolean).join('\n\n'),
    ...helpers.values(),
    ...sections.map((s) => s.body),
  ];
  return `${parts.filter((p) => p.trim() !== '').join('\n\n')}\n`;
}

/** How one language writes the config's fields. */
export interface ConfigSpelling {
  indent: string;
  /** One property or argument line, with its trailing separator. */
  field(name: string, value: string): string;
  text(value: string): string;
  url?(value: string): string;
  /** The subscription-provider setter; store-direct configs have none. */
  setter: string;
}

/**
 * The config every SDK takes, each field after the rule that explains it: the public key, this server's client
 * base URL, autoCapture only where it means something (rule 8), and the attribute setter (rule 6).
 */
export function configFields(c: ScaffoldContext, spell: ConfigSpelling): string[] {
  const { autoCapture, storeDirect } = c.options;
  return [
    comment(WHY.key, spell.indent),
    spell.field('apiKey', spell.text(c.sdkKey)),
    comment(WHY.baseUrl, spell.indent),
    spell.field('baseUrl', spell.url ? spell.url(c.apiBase) : spell.text(c.apiBase)),
    comment(autoCaptureWhy(c), spell.indent),
    ...(autoCapture === null ? [] : [spell.field('autoCapture', String(autoCapture))]),
    ...(storeDirect ? [] : [spell.field('setSubscriberAttributes', spell.setter)]),
  ];
}

/** File stems per kind; each language spells them its way (svc-referral-code.ts, SvcReferralCode.swift, ...). */
const FILE_STEMS: Record<ScaffoldKind, string> = {
  install: 'config',
  init: 'init',
  attribution: 'attribution',
  manual_code: 'referral_code',
  report_purchase: 'purchases',
  full: '',
};

export const pascalCase = (stem: string) => stem.replace(/(^|_)([a-z])/g, (_m, _s, ch: string) => ch.toUpperCase());

function sourceFile(lang: LanguageScaffolder, kind: ScaffoldKind, sections: Section[], header: string[]): ScaffoldFile {
  return { file_name: lang.fileName(FILE_STEMS[kind]), language: lang.language, code: renderFile(lang, sections, header) };
}

function premiumGate(lang: LanguageScaffolder, c: ScaffoldContext): Section {
  const section = lang.premiumGate[c.options.storeDirect ? 'store' : 'provider'](c);
  return { ...section, body: `${comment(WHY.gate)}\n${section.body}` };
}

function reportVariant(c: ScaffoldContext): ReportVariant {
  if (!c.options.storeDirect) return 'provider';
  return c.options.reportsItself ? 'host' : 'autoCapture';
}

type SectionName = 'config' | 'init' | 'attribution' | 'manualCode' | 'premiumGate' | 'report';

/** The sections of each kind other than install and full, in file order. */
const KIND_SECTIONS: Record<Exclude<ScaffoldKind, 'install' | 'full'>, SectionName[]> = {
  init: ['init'],
  attribution: ['attribution'],
  manual_code: ['manualCode', 'premiumGate'],
  report_purchase: ['report'],
};
const FULL_SECTIONS: SectionName[] = ['config', 'init', 'attribution', 'manualCode', 'premiumGate', 'report'];

function build(lang: LanguageScaffolder, names: SectionName[], c: ScaffoldContext): Section[] {
  return names.map((name) => {
    if (name === 'report') return lang.report[reportVariant(c)](c);
    return name === 'premiumGate' ? premiumGate(lang, c) : lang[name](c);
  });
}

export function composeScaffold(lang: LanguageScaffolder, kind: ScaffoldKind, c: ScaffoldContext): ScaffoldFile[] {
  const header = [`${c.sdk.name} ${c.sdk.version} (${c.pkg.name}), wire contract ${CONTRACT_VERSION}: ${kind.replace('_', ' ')} scaffold.`];
  if (kind === 'install') {
    return [...lang.manifest(c), sourceFile(lang, kind, build(lang, ['config'], c), [...header, storageKeysText(c)])];
  }
  if (kind === 'full') {
    return [...lang.manifest(c), sourceFile(lang, kind, build(lang, FULL_SECTIONS, c), [...header, storageKeysText(c)])];
  }
  const sections = build(lang, KIND_SECTIONS[kind], c);
  if (lang.configImport && sections.some((s) => s.usesConfig)) sections.unshift({ imports: [lang.configImport], body: '' });
  return [sourceFile(lang, kind, sections, header)];
}
