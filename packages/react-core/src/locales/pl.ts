import { plMessages } from "@tidings/client/locales/pl";
import { plStrings } from "../i18n/pl.js";
import type { LocalePack } from "../i18n/locale-pack.js";

/**
 * Polish: the UI strings and the SDK's messages. Pass it to the provider to offer the language.
 *
 * @example
 * ```tsx
 * import { pl } from "@tidings/react-core/locales/pl";
 * <TidingsProvider client={client} locales={[pl]} />
 * ```
 */
export const pl: LocalePack = { locale: "pl", strings: plStrings, messages: plMessages };
