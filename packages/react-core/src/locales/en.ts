/**
 * English, built in: every provider has it without this import, and every other pack falls back
 * to it. Import it to name English among the packs a language picker offers.
 *
 * @example
 * ```ts
 * import { en } from "@tidings/react-core/locales/en";
 * createTranslator(en)("feedback.submit"); // "Send"
 * ```
 */
export { english as en } from "../i18n/locale-pack.js";
