import { zhHantMessages } from "@tidings/client/locales/zh-hant";
import { zhHantStrings } from "../i18n/zh-hant.js";
import type { LocalePack } from "../i18n/locale-pack.js";

/**
 * Traditional Chinese: the UI strings and the SDK's messages. Pass it to the provider to offer the language.
 *
 * @example
 * ```tsx
 * import { zhHant } from "@tidings/react-core/locales/zh-hant";
 * <TidingsProvider client={client} locales={[zhHant]} />
 * ```
 */
export const zhHant: LocalePack = { locale: "zh-Hant", strings: zhHantStrings, messages: zhHantMessages };
