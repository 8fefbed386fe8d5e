import { LOCALES, enMessages, type Locale, type MessageCatalog, type PluralMessage } from "@tidings/client";
import { enStrings, type StringId } from "./en.js";

/** A UI message: plain text or plural forms (`{count}` is the number). */
export type UiMessage = string | PluralMessage;

/** One locale's UI strings; missing ids fall back to English. */
export type UiCatalog = Partial<Record<StringId, UiMessage>>;

/**
 * One language as an opt-in module: its UI strings and the SDK's messages. English is built in;
 * an app offers another language by importing its pack (`@tidings/react-core/locales/<code>`)
 * and passing it to the provider, so a bundler that cannot drop unused modules (Metro) carries
 * only the languages the app chose.
 *
 * @example
 * ```tsx
 * import { de } from "@tidings/react-core/locales/de";
 * <TidingsProvider client={client} locales={[de]} />
 * ```
 */
export interface LocalePack {
  /** The locale the pack is for. */
  readonly locale: Locale;
  /** UI strings by id; an id left out reads the English text. */
  readonly strings: UiCatalog;
  /** The SDK's error and status messages (`error.network`, `outbox.queued`, …). */
  readonly messages: MessageCatalog;
}

/** The built-in English pack, the fallback of every other. */
export const english: LocalePack = { locale: "en", strings: enStrings, messages: enMessages };

/**
 * The pack of `locale` among `packs`; English when none is for it.
 *
 * @example
 * ```ts
 * packFor("fr", [de, fr]) === fr; // true
 * ```
 */
export function packFor(locale: Locale, packs: readonly LocalePack[]): LocalePack {
  return packs.find((pack) => pack.locale === locale) ?? english;
}

/**
 * The locales `packs` make available, English first, then in the spec's order, each once.
 *
 * @example
 * ```ts
 * availableLocales([fr, de]); // ["en", "fr", "de"]
 * ```
 */
export function availableLocales(packs: readonly LocalePack[]): Locale[] {
  const given = new Set<Locale>(packs.map((pack) => pack.locale));
  return LOCALES.filter((locale) => locale === "en" || given.has(locale));
}

const warned = new WeakMap<object, Set<Locale>>();

/**
 * Says once per client and locale (through the client's development `warn`) that an explicit
 * `locale` has no pack among the provider's `locales`, so the screens show English.
 *
 * @example
 * ```ts
 * warnMissingPack(client, "de"); // [tidings] locale="de" has no pack: …
 * ```
 */
export function warnMissingPack(client: { readonly warn: (message: string) => void }, locale: Locale): void {
  const seen = warned.get(client) ?? new Set<Locale>();
  if (seen.has(locale)) return;
  seen.add(locale);
  warned.set(client, seen);
  const name = locale.replace(/-(\w)/, (_, letter: string) => letter.toUpperCase());
  client.warn(
    `locale="${locale}" has no pack, so the screens show English: import { ${name} } from "@tidings/react-core/locales/${locale.toLowerCase()}" and pass locales={[${name}]} to the provider.`,
  );
}
