import { canonicalAttributesJson, canonicalNumber } from "./canonical.js";
import type { CompanyAttributes, UserAttributes } from "./user-attributes.js";

function line(value: unknown, format: (v: never) => string = String): string {
  if (value === undefined) return "unset";
  if (value === null) return "null";
  return format(value as never);
}

/** The six company lines of `cpt-user-attrs-v2`; all `null` when the user leaves their company. */
function companyLines(company: CompanyAttributes | null): string[] {
  if (company === null) return ["null", "null", "null", "null", "null", "null"];
  return [
    company.id,
    line(company.name),
    line(company.mrr, canonicalNumber),
    line(company.currency),
    line(company.plan),
    company.attributes === undefined ? "unset" : canonicalAttributesJson(company.attributes),
  ];
}

/**
 * The exact text the server verifies (wire-contract §5): eight lines of `cpt-user-attrs-v1`
 * joined by `\n`, or, when `attributes.company` is present, fourteen of `cpt-user-attrs-v2` (the
 * company's six lines before the timestamp).
 *
 * @example
 * ```ts
 * userAttributesSigningString({ appKey: "app_x", userToken: "…", attributes: { isPaying: true }, timestamp: 1700000000 });
 * userAttributesSigningString({ appKey: "app_x", userToken: "…", attributes: { company: { id: "acct_42" } }, timestamp: 1700000000 });
 * ```
 */
export function userAttributesSigningString(input: {
  appKey: string;
  userToken: string;
  attributes: UserAttributes;
  timestamp: number;
}): string {
  const a = input.attributes;
  return [
    a.company === undefined ? "cpt-user-attrs-v1" : "cpt-user-attrs-v2",
    input.appKey,
    input.userToken,
    line(a.isPaying),
    line(a.plan),
    line(a.mrr, canonicalNumber),
    line(a.currency),
    ...(a.company === undefined ? [] : companyLines(a.company)),
    String(input.timestamp),
  ].join("\n");
}
