/**
 * The ISO 4217 codes in current use, from the ICU data Node ships (`Intl.supportedValuesOf`),
 * which follows the ISO maintenance agency's list with each Node release; no list of our own
 * to keep up.
 */
const CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf("currency"));

/**
 * True for an upper-case ISO 4217 code in current use.
 *
 * @example
 * ```ts
 * isKnownCurrency("EUR"); // true
 * isKnownCurrency("XYZ"); // false
 * ```
 */
export function isKnownCurrency(code: string): boolean {
  return CURRENCIES.has(code);
}
