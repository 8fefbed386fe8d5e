import { ptMessages } from "@tidings/client/locales/pt";
import { ptStrings } from "../i18n/pt.js";
import type { LocalePack } from "../i18n/locale-pack.js";

/**
 * Portuguese (Brazil): the UI strings and the SDK's messages. Pass it to the provider to offer the language.
 *
 * @example
 * ```tsx
 * import { pt } from "@tidings/react-core/locales/pt";
 * <TidingsProvider client={client} locales={[pt]} />
 * ```
 */
export const pt: LocalePack = { locale: "pt", strings: ptStrings, messages: ptMessages };
