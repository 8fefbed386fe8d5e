import { noMessages } from "@tidings/client/locales/no";
import { noStrings } from "../i18n/no.js";
import type { LocalePack } from "../i18n/locale-pack.js";

/**
 * Norwegian Bokmål: the UI strings and the SDK's messages. Pass it to the provider to offer the language.
 *
 * @example
 * ```tsx
 * import { no } from "@tidings/react-core/locales/no";
 * <TidingsProvider client={client} locales={[no]} />
 * ```
 */
export const no: LocalePack = { locale: "no", strings: noStrings, messages: noMessages };
