import type { Locale } from "../locale.js";
import { enMessages, type MessageCatalog } from "../messages.js";
import { frMessages } from "./fr.js";
import { esMessages } from "./es.js";
import { deMessages } from "./de.js";
import { itMessages } from "./it.js";
import { ptMessages } from "./pt.js";
import { jaMessages } from "./ja.js";
import { zhHantMessages } from "./zh-hant.js";
import { koMessages } from "./ko.js";
import { plMessages } from "./pl.js";
import { noMessages } from "./no.js";
import { trMessages } from "./tr.js";
import { viMessages } from "./vi.js";
import { zhHansMessages } from "./zh-hans.js";

export { enMessages };
export { frMessages, esMessages, deMessages, itMessages, ptMessages, jaMessages, zhHantMessages, koMessages, plMessages, noMessages, trMessages, viMessages, zhHansMessages };

/**
 * Every built-in catalog by locale. An app that bundles with Metro, which keeps every module it
 * can reach, imports only the languages it offers: `@tidings/client/locales/<code>`.
 */
export const catalogs: Record<Locale, MessageCatalog> = {
  en: enMessages,
  fr: frMessages,
  es: esMessages,
  de: deMessages,
  it: itMessages,
  pt: ptMessages,
  ja: jaMessages,
  "zh-Hant": zhHantMessages,
  ko: koMessages,
  pl: plMessages,
  no: noMessages,
  tr: trMessages,
  vi: viMessages,
  "zh-Hans": zhHansMessages,
};

/**
 * The catalog of `locale` with `overrides` applied on top.
 *
 * @example
 * ```ts
 * getMessages(resolveLocale("auto"), { "error.timeout": "Slow network, try again." });
 * // with one language only:
 * import { deMessages } from "@tidings/client/locales/de";
 * userFacingErrorMessage(error, "de", deMessages);
 * ```
 */
export function getMessages(locale: Locale, overrides: Partial<MessageCatalog> = {}): MessageCatalog {
  return { ...catalogs[locale], ...overrides };
}
