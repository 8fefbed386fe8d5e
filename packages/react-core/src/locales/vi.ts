import { viMessages } from "@tidings/client/locales/vi";
import { viStrings } from "../i18n/vi.js";
import type { LocalePack } from "../i18n/locale-pack.js";

/**
 * Vietnamese: the UI strings and the SDK's messages. Pass it to the provider to offer the language.
 *
 * @example
 * ```tsx
 * import { vi } from "@tidings/react-core/locales/vi";
 * <TidingsProvider client={client} locales={[vi]} />
 * ```
 */
export const vi: LocalePack = { locale: "vi", strings: viStrings, messages: viMessages };
