import { esMessages } from "@tidings/client/locales/es";
import { esStrings } from "../i18n/es.js";
import type { LocalePack } from "../i18n/locale-pack.js";

/**
 * Spanish: the UI strings and the SDK's messages. Pass it to the provider to offer the language.
 *
 * @example
 * ```tsx
 * import { es } from "@tidings/react-core/locales/es";
 * <TidingsProvider client={client} locales={[es]} />
 * ```
 */
export const es: LocalePack = { locale: "es", strings: esStrings, messages: esMessages };
