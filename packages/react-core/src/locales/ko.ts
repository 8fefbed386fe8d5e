import { koMessages } from "@tidings/client/locales/ko";
import { koStrings } from "../i18n/ko.js";
import type { LocalePack } from "../i18n/locale-pack.js";

/**
 * Korean: the UI strings and the SDK's messages. Pass it to the provider to offer the language.
 *
 * @example
 * ```tsx
 * import { ko } from "@tidings/react-core/locales/ko";
 * <TidingsProvider client={client} locales={[ko]} />
 * ```
 */
export const ko: LocalePack = { locale: "ko", strings: koStrings, messages: koMessages };
