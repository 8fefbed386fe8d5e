import { zhHansMessages } from "@tidings/client/locales/zh-hans";
import { zhHansStrings } from "../i18n/zh-hans.js";
import type { LocalePack } from "../i18n/locale-pack.js";

/**
 * Simplified Chinese: the UI strings and the SDK's messages. Pass it to the provider to offer the language.
 *
 * @example
 * ```tsx
 * import { zhHans } from "@tidings/react-core/locales/zh-hans";
 * <TidingsProvider client={client} locales={[zhHans]} />
 * ```
 */
export const zhHans: LocalePack = { locale: "zh-Hans", strings: zhHansStrings, messages: zhHansMessages };
