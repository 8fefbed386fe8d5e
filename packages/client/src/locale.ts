/** The built-in locales (rule 13). */
export const LOCALES = ["en", "fr", "es", "de", "it", "pt", "ja", "zh-Hant", "ko", "pl", "no", "tr", "vi", "zh-Hans"] as const;
/** A locale the SDK and UI packages have catalogs for. */
export type Locale = (typeof LOCALES)[number];

/** `auto` (device language, else English) or a locale tag. */
export type LocaleSetting = "auto" | Locale | (string & {});

/**
 * The built-in locale a BCP 47 tag falls under: regional variants go to their base (`pt-BR` →
 * `pt`, `nb-NO` → `no`, `zh-TW` → `zh-Hant`, `zh-Hans-CN` → `zh-Hans`); undefined when none.
 *
 * @example
 * ```ts
 * matchLocale("pt-BR"); // "pt"
 * ```
 */
export function matchLocale(tag: string): Locale | undefined {
  const parts = tag.trim().replace(/_/g, "-").split("-").filter(Boolean);
  const language = parts[0]?.toLowerCase();
  if (language === undefined) return undefined;
  const rest = parts.slice(1).map((p) => p.toLowerCase());
  if (language === "zh") {
    if (rest.includes("hant") || rest.some((p) => p === "tw" || p === "hk" || p === "mo")) return "zh-Hant";
    return "zh-Hans";
  }
  if (language === "nb" || language === "nn" || language === "no") return "no";
  return (LOCALES as readonly string[]).includes(language) ? (language as Locale) : undefined;
}

/** The device's preferred languages, best first, by feature detection. */
export function deviceLocales(env: { navigator?: unknown } = globalThis): string[] {
  const nav = (env.navigator ?? {}) as { languages?: unknown; language?: unknown };
  const found: string[] = [];
  if (Array.isArray(nav.languages)) found.push(...nav.languages.filter((l): l is string => typeof l === "string"));
  if (typeof nav.language === "string") found.push(nav.language);
  try {
    found.push(Intl.DateTimeFormat().resolvedOptions().locale);
  } catch {
    // No Intl locale data (old Hermes builds): English below.
  }
  return found;
}

/**
 * Rule 13: an explicit supported locale wins; `auto` takes the first device language with a
 * catalog; everything else is English. `available` narrows the choice to the catalogs an app
 * ships (English is always among them): an explicit locale outside it is English too.
 *
 * @example
 * ```ts
 * resolveLocale("auto", ["nb-NO", "en-US"]); // "no"
 * resolveLocale("auto", ["nb-NO", "fr-FR"], ["en", "fr"]); // "fr"
 * ```
 */
export function resolveLocale(setting: LocaleSetting = "auto", device: readonly string[] = deviceLocales(), available: readonly Locale[] = LOCALES): Locale {
  const usable = (locale: Locale | undefined): locale is Locale => locale !== undefined && (locale === "en" || available.includes(locale));
  if (setting !== "auto") {
    const match = matchLocale(setting);
    return usable(match) ? match : "en";
  }
  for (const tag of device) {
    const match = matchLocale(tag);
    if (usable(match)) return match;
  }
  return "en";
}
