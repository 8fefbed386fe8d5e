/** The shape both optional locale libraries answer with. */
interface LocaleEntry {
  languageTag?: unknown;
}

declare const require: (id: string) => unknown;

function tags(entries: unknown): string[] {
  if (!Array.isArray(entries)) return [];
  return entries.flatMap((entry: LocaleEntry) => (typeof entry?.languageTag === "string" ? [entry.languageTag] : []));
}

/**
 * The device's preferred languages, best first: from `expo-localization` when the host app has
 * it, else `react-native-localize`, else `Intl`'s default locale. Both libraries are optional
 * peers, required inside `try` so that Metro treats them as optional and an app without them
 * still starts.
 *
 * @example
 * ```ts
 * deviceLanguages(); // ["nb-NO", "en-US"]
 * ```
 */
export function deviceLanguages(): string[] {
  try {
    const expo = require("expo-localization") as { getLocales?: () => unknown };
    const found = tags(expo.getLocales?.());
    if (found.length > 0) return found;
  } catch {
    // Not installed.
  }
  try {
    const localize = require("react-native-localize") as { getLocales?: () => unknown };
    const found = tags(localize.getLocales?.());
    if (found.length > 0) return found;
  } catch {
    // Not installed.
  }
  try {
    return [Intl.DateTimeFormat().resolvedOptions().locale];
  } catch {
    return [];
  }
}
