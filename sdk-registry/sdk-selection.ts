// Which SDK a tool call means. Agents describe the stack in whichever field they reach for (the spec accepts
// platform, hostStack, framework, language and sdkId); fields are read from the most to the least specific, and the
// first that names anything decides, so `{framework: 'react native', platform: 'ios'}` is React Native, not iOS.
import { matchStack, type AliasMatch } from './aliases.js';
import { inputError } from './input-error.js';
import { getSdk, isSdkId, SDK_IDS, type SdkEntry } from './registry.js';

const SELECTOR_FIELDS = ['sdk', 'sdkId', 'framework', 'hostStack', 'platform', 'language'] as const;

/** JSON Schema properties for the selector fields (every one optional, free text). */
export const selectorProperties: Record<string, unknown> = Object.fromEntries(
  SELECTOR_FIELDS.map((field) => [
    field,
    {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description:
        field === 'sdk'
          ? `SDK id (${SDK_IDS.join(', ')}) or any stack alias (expo, swiftui, kotlin, flutter/dart, next.js, capacitor, ...)`
          : 'Alias of `sdk`.',
    },
  ]),
);

export interface FieldMatches {
  field: string | null;
  text: string;
  matches: AliasMatch[];
}

/** The first field (in `fields` order) whose text names at least one SDK; exact ids match directly. */
export function matchFirstField(input: Record<string, unknown>, fields: readonly string[] = SELECTOR_FIELDS): FieldMatches {
  const textOf = (field: string) => (typeof input[field] === 'string' ? input[field].trim() : '');
  const given = fields.filter((f) => textOf(f) !== '');
  for (const field of given) {
    const text = textOf(field);
    const id = text.toLowerCase();
    if (isSdkId(id)) return { field, text, matches: [{ sdk: id, alias: id }] };
    const matches = matchStack(text);
    if (matches.length > 0) return { field, text, matches };
  }
  return { field: null, text: given.map(textOf).join(' '), matches: [] };
}

const CHOICES = `one of ${SDK_IDS.join(', ')} (or an alias such as expo, swiftui, kotlin, flutter, next.js, capacitor)`;

/** Exactly one SDK for a scaffold; anything else is an input error that lists the choices. */
export function resolveOneSdk(input: Record<string, unknown>): { sdk: SdkEntry; match: AliasMatch } {
  const { field, text, matches } = matchFirstField(input);
  const loc = [field ?? 'sdk'];
  if (text === '') throw inputError(loc, `Say which SDK: \`sdk\` is ${CHOICES}.`, 'missing');
  const [first] = matches;
  if (!first) throw inputError(loc, `'${text}' names no SDK we ship; \`sdk\` is ${CHOICES}.`);
  if (matches.length > 1) {
    throw inputError(loc, `'${text}' names several SDKs (${matches.map((m) => m.sdk).join(', ')}); scaffold one at a time.`);
  }
  return { sdk: getSdk(first.sdk), match: first };
}
