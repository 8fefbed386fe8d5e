import { frMessages } from "@tidings/client/locales/fr";
import { frStrings } from "../i18n/fr.js";
import type { LocalePack } from "../i18n/locale-pack.js";

/**
 * French: the UI strings and the SDK's messages. Pass it to the provider to offer the language.
 *
 * @example
 * ```tsx
 * import { fr } from "@tidings/react-core/locales/fr";
 * <TidingsProvider client={client} locales={[fr]} />
 * ```
 */
export const fr: LocalePack = { locale: "fr", strings: frStrings, messages: frMessages };
