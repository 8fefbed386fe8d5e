import { deMessages } from "@tidings/client/locales/de";
import { deStrings } from "../i18n/de.js";
import type { LocalePack } from "../i18n/locale-pack.js";

/**
 * German: the UI strings and the SDK's messages. Pass it to the provider to offer the language.
 *
 * @example
 * ```tsx
 * import { de } from "@tidings/react-core/locales/de";
 * <TidingsProvider client={client} locales={[de]} />
 * ```
 */
export const de: LocalePack = { locale: "de", strings: deStrings, messages: deMessages };
