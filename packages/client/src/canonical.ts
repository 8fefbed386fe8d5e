import type { CompanyAttributeValue } from "./user-attributes.js";

/**
 * A number as the signature canonicalises it: two decimals, trailing zeros and point dropped
 * (`99.50` → `99.5`, `10.125` → `10.13`).
 */
export function canonicalNumber(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError("mrr must be a finite number");
  if (Math.abs(value) >= 1e21) return String(value);
  return value.toFixed(2).replace(/0+$/, "").replace(/\.$/, "");
}

/**
 * A flat map as RFC 8785 canonical JSON: keys sorted by UTF-16 code units, no whitespace,
 * strings and numbers as `JSON.stringify` writes them.
 *
 * @example
 * ```ts
 * canonicalAttributesJson({ seats: 40, region: "eu" }); // '{"region":"eu","seats":40}'
 * ```
 */
export function canonicalAttributesJson(attributes: Readonly<Record<string, CompanyAttributeValue>>): string {
  const keys = Object.keys(attributes).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${JSON.stringify(attributes[key])}`).join(",")}}`;
}
