// Custom search attributes of the conversion workflows (DESIGN.md "Temporal"). The dev server registers them at
// start; operators query them in the Web UI (`AppUserId='u1'`). Workflows import the typed keys from here.
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

export const AppIdKey = defineSearchAttributeKey('AppId', SearchAttributeType.KEYWORD);
export const ReferralCodeKey = defineSearchAttributeKey('ReferralCode', SearchAttributeType.KEYWORD);
export const AppUserIdKey = defineSearchAttributeKey('AppUserId', SearchAttributeType.KEYWORD);
export const ConversionStatusKey = defineSearchAttributeKey('ConversionStatus', SearchAttributeType.KEYWORD);
export const EnvironmentKey = defineSearchAttributeKey('Environment', SearchAttributeType.KEYWORD);

const SEARCH_ATTRIBUTE_KEYS = [AppIdKey, ReferralCodeKey, AppUserIdKey, ConversionStatusKey, EnvironmentKey];

/** `--search-attribute` values for `temporal server start-dev`. */
export function devServerSearchAttributeArgs(): string[] {
  return SEARCH_ATTRIBUTE_KEYS.flatMap((key) => ['--search-attribute', `${key.name}=Keyword`]);
}
