import { jaMessages } from "@tidings/client/locales/ja";
import { jaStrings } from "../i18n/ja.js";
import type { LocalePack } from "../i18n/locale-pack.js";

/**
 * Japanese: the UI strings and the SDK's messages. Pass it to the provider to offer the language.
 *
 * @example
 * ```tsx
 * import { ja } from "@tidings/react-core/locales/ja";
 * <TidingsProvider client={client} locales={[ja]} />
 * ```
 */
export const ja: LocalePack = { locale: "ja", strings: jaStrings, messages: jaMessages };
