import { itMessages } from "@tidings/client/locales/it";
import { itStrings } from "../i18n/it.js";
import type { LocalePack } from "../i18n/locale-pack.js";

/**
 * Italian: the UI strings and the SDK's messages. Pass it to the provider to offer the language.
 *
 * @example
 * ```tsx
 * import { it } from "@tidings/react-core/locales/it";
 * <TidingsProvider client={client} locales={[it]} />
 * ```
 */
export const it: LocalePack = { locale: "it", strings: itStrings, messages: itMessages };
