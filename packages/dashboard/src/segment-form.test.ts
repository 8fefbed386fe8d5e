import type { Segment } from "@tidings/protocol";
import { describe, expect, it } from "vitest";
import { attributeValueOf, EMPTY_SEGMENT_FORM, formFromSegment, segmentBody } from "./segment-form.js";
import { segmentUses } from "./segment-in-use.js";
import { validateSegment } from "./segment-validation.js";

const segment = {
  id: "seg_1",
  appId: "app_1",
  name: "Big EU accounts",
  rule: {
    user: { isPaying: true, plans: ["pro", "team"], mrr: { min: 50, currency: "USD" } },
    company: {
      ids: ["acct_42", "acct_77"],
      plans: ["enterprise"],
      mrr: { min: 1000, max: 50000, currency: "EUR" },
      attributes: [
        { key: "region", in: ["eu"] },
        { key: "seats", in: [40, "40", true] },
      ],
    },
  },
  createdAt: "2030-01-01T00:00:00.000Z",
  updatedAt: "2030-01-01T00:00:00.000Z",
} satisfies Segment;

describe("segment form", () => {
  it("sends a stored segment back unchanged, every condition and value type included", () => {
    const form = formFromSegment(segment);
    expect(form).toMatchObject({ userPlans: "pro, team", userPaying: "yes", userMrr: { min: "50", max: "", currency: "USD" }, companyIds: "acct_42, acct_77" });
    expect(form.attributes[1]).toEqual({ key: "seats", values: '40, "40", true' });
    expect(validateSegment(form)).toEqual({});
    expect(segmentBody(form)).toEqual({ name: "Big EU accounts", rule: segment.rule });
  });

  it("sends only the conditions given: comma lists trimmed, currencies upper-cased, none is the rule that holds everyone", () => {
    expect(segmentBody({ ...EMPTY_SEGMENT_FORM, name: " All " })).toEqual({ name: "All", rule: {} });
    const form = { ...EMPTY_SEGMENT_FORM, name: "Free", userPaying: "no" as const, companyPlans: " team,, team , free ", companyMrr: { min: "", max: "99.5", currency: "eur" } };
    expect(segmentBody(form).rule).toEqual({ user: { isPaying: false }, company: { plans: ["team", "free"], mrr: { max: 99.5, currency: "EUR" } } });
  });

  it("reads attribute values by type: numbers and flags as such, quoted text as text", () => {
    expect([attributeValueOf("40"), attributeValueOf("-1.5"), attributeValueOf("false"), attributeValueOf('"40"'), attributeValueOf("eu")]).toEqual([40, -1.5, false, "40", "eu"]);
  });

  it("names the server's body paths for every mistake before sending", () => {
    const errors = validateSegment({
      ...EMPTY_SEGMENT_FORM,
      userMrr: { min: "abc", max: "", currency: "" },
      companyMrr: { min: "100", max: "10", currency: "EURO" },
      companyIds: Array.from({ length: 101 }, (_, i) => `c${i}`).join(","),
      attributes: [{ key: "bad key", values: " , " }],
    });
    expect(errors).toEqual({
      name: ["Required."],
      "rule.user.mrr.min": ["Enter a number from 0 to 1000000000."],
      "rule.user.mrr.currency": ["Enter a three-letter currency code (USD, EUR)."],
      "rule.company.ids": ["Use at most 100."],
      "rule.company.mrr.max": ["The maximum must not be below the minimum."],
      "rule.company.mrr.currency": ["Enter a three-letter currency code (USD, EUR)."],
      "rule.company.attributes.0.key": ["Use 1 to 64 letters, digits, dots, dashes or underscores."],
      "rule.company.attributes.0.in": ["Give at least one value."],
    });
  });

  it("reads what a refused delete names, ignoring anything of another shape", () => {
    expect(segmentUses({ boards: ["brd_1"], releases: ["cl_2", 3] })).toEqual({ boards: ["brd_1"], releases: ["cl_2"] });
    expect(segmentUses(null)).toEqual({ boards: [], releases: [] });
  });
});
