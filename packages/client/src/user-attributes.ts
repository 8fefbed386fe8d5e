/** A value of a company's further attributes: flat, no objects or arrays. */
export type CompanyAttributeValue = string | number | boolean | null;

/**
 * The company an end user belongs to, as your backend reports it (docs/identifying-users.md,
 * "Companies"). A field left out keeps what the server has; `attributes`, when sent, replaces
 * the whole map.
 *
 * @example
 * ```ts
 * const company: CompanyAttributes = { id: "acct_42", name: "Acme GmbH", mrr: 1200.5, currency: "EUR", plan: "business", attributes: { seats: 40 } };
 * ```
 */
export interface CompanyAttributes {
  /** Your id for the account, 1–128 characters on one line: users reported with it share the company. */
  id: string;
  /** 1–200 characters on one line. */
  name?: string | undefined;
  /** Monthly recurring revenue in currency units, 0 to 1,000,000,000; null when unknown. */
  mrr?: number | null | undefined;
  /** ISO 4217 code of the MRR; a new company without one is in USD. */
  currency?: string | undefined;
  /** 1–64 characters on one line, or null. */
  plan?: string | null | undefined;
  /** Keys of 1–64 letters, digits, `_`, `.` or `-`; at most 50 keys, 8 KB as canonical JSON. */
  attributes?: Readonly<Record<string, CompanyAttributeValue>> | undefined;
}

/** Payment attributes of an end user, as `PUT /public/apps/<APP_KEY>/user` takes them. */
export interface UserAttributes {
  isPaying?: boolean | null | undefined;
  plan?: string | null | undefined;
  /** Monthly recurring revenue in currency units. */
  mrr?: number | null | undefined;
  /** Three-letter currency code. */
  currency?: string | undefined;
  /** The user's company; null takes them out of theirs. Signed with `cpt-user-attrs-v2`. */
  company?: CompanyAttributes | null | undefined;
}
