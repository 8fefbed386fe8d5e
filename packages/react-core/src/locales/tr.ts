import { trMessages } from "@tidings/client/locales/tr";
import { trStrings } from "../i18n/tr.js";
import type { LocalePack } from "../i18n/locale-pack.js";

/**
 * Turkish: the UI strings and the SDK's messages. Pass it to the provider to offer the language.
 *
 * @example
 * ```tsx
 * import { tr } from "@tidings/react-core/locales/tr";
 * <TidingsProvider client={client} locales={[tr]} />
 * ```
 */
export const tr: LocalePack = { locale: "tr", strings: trStrings, messages: trMessages };
