import { describe, expect, it } from "vitest";
import { ApiError } from "../http/errors.js";
import { canonicalAttributes, malformedBodyField, parseCompanyReport, reportedCurrency } from "./company-report.js";

const codeOf = (run: () => unknown): string | undefined => {
  try {
    run();
    return undefined;
  } catch (error) {
    return error instanceof ApiError ? error.code : "not an ApiError";
  }
};

describe("a reported company", () => {
  it("keeps the fields sent, in cents and upper-case currency, attributes in canonical JSON", () => {
    expect(parseCompanyReport({ id: "acct_42", name: "Acme", mrr: 1200.5, currency: "eur", plan: null, attributes: { z: 1, a: "x" } }, malformedBodyField)).toEqual({
      externalId: "acct_42",
      name: "Acme",
      mrrCents: 120050,
      currency: "EUR",
      plan: null,
      attributes: '{"a":"x","z":1}',
    });
    expect(parseCompanyReport({ id: "acct_42" }, malformedBodyField)).toEqual({ externalId: "acct_42" });
    expect(parseCompanyReport({ id: "acct_42", mrr: null }, malformedBodyField)).toEqual({ externalId: "acct_42", mrrCents: null });
  });

  it.each([[-1], [-0.01], [Number.POSITIVE_INFINITY], [Number.NaN], [1_000_000_000.01]])("refuses an MRR of %s with invalid_mrr", (mrr) => {
    expect(codeOf(() => parseCompanyReport({ id: "a", mrr }, malformedBodyField))).toBe("invalid_mrr");
  });

  it("refuses a currency that is not ISO 4217 with unknown_currency, for the company and the user alike", () => {
    expect(codeOf(() => parseCompanyReport({ id: "a", currency: "XYZ" }, malformedBodyField))).toBe("unknown_currency");
    expect(codeOf(() => reportedCurrency("abc"))).toBe("unknown_currency");
    expect(reportedCurrency("jpy")).toBe("JPY");
  });

  it("refuses more than 50 attributes, a string over 1,000 characters and more than 8 KB with company_attributes_too_large", () => {
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i]));
    expect(codeOf(() => parseCompanyReport({ id: "a", attributes: many }, malformedBodyField))).toBe("company_attributes_too_large");
    expect(codeOf(() => parseCompanyReport({ id: "a", attributes: { notes: "x".repeat(1001) } }, malformedBodyField))).toBe("company_attributes_too_large");
    const heavy = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, "é".repeat(1000)]));
    expect(codeOf(() => parseCompanyReport({ id: "a", attributes: heavy }, malformedBodyField))).toBe("company_attributes_too_large");
    const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, "x".repeat(100)]));
    expect(parseCompanyReport({ id: "a", attributes: fifty }, malformedBodyField).attributes).toBe(canonicalAttributes(fifty));
  });

  it("refuses keys outside letters, digits, _ . - and values that are not flat, as malformed", () => {
    expect(codeOf(() => parseCompanyReport({ id: "a", attributes: { "two words": 1 } }, malformedBodyField))).toBe("validation_failed");
    expect(codeOf(() => parseCompanyReport({ id: "a", attributes: { nested: { a: 1 } } }, malformedBodyField))).toBe("validation_failed");
    expect(codeOf(() => parseCompanyReport({ id: "line\nbreak" }, malformedBodyField))).toBe("validation_failed");
    expect(codeOf(() => parseCompanyReport({ name: "no id" }, malformedBodyField))).toBe("validation_failed");
  });
});
