import { userAttributesSigningString } from "@tidings/client";
import { describe, expect, it } from "vitest";
import { canonicalAttributeString, canonicalNumber, signAttributes, signatureMatches } from "./attribute-signature.js";

describe("canonicalNumber", () => {
  it.each([
    [1200, "1200"],
    [99.5, "99.5"],
    [10.125, "10.13"],
    [1200.005, "1200.01"],
    [99.995, "100"],
    [1.235, "1.24"],
    [0, "0"],
    [12, "12"],
    [299.5, "299.5"],
  ])("formats %s as %s", (value, expected) => {
    expect(canonicalNumber(value)).toBe(expected);
  });

  it("refuses NaN and infinities", () => {
    expect(() => canonicalNumber(Number.NaN)).toThrow(RangeError);
    expect(() => canonicalNumber(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});

describe("the published cpt-user-attrs-v1 test vectors", () => {
  it("vector 1: every attribute present", () => {
    const input = {
      appKey: "app_testkey1234567",
      userToken: "00000000-0000-4000-8000-000000000001",
      isPaying: true,
      plan: "pro",
      mrr: 12,
      currency: "usd",
      timestamp: 1700000000,
    };
    expect(canonicalAttributeString(input)).toBe(
      "cpt-user-attrs-v1\napp_testkey1234567\n00000000-0000-4000-8000-000000000001\ntrue\npro\n12\nusd\n1700000000",
    );
    expect(signAttributes("7".repeat(64), input)).toBe("a18280f71c28b3d57412815b6096987e31ca5a510915ab975e1fb1f9a586442d");
  });

  it("vector 2: explicit null plan and an absent currency", () => {
    const input = {
      appKey: "app_testkey1234567",
      userToken: "00000000-0000-4000-8000-000000000001",
      isPaying: false,
      plan: null,
      mrr: 299.5,
      timestamp: 1700000000,
    };
    expect(canonicalAttributeString(input).split("\n").slice(3)).toEqual(["false", "null", "299.5", "unset", "1700000000"]);
    expect(signAttributes("secret_key_12345", input)).toBe("9fa9f8bd62f67bf836ac2a9f8984483b5e064302677e1b82f16e86da8ca2648f");
  });

  it("vector 3: the React Native skill's example", () => {
    const input = {
      appKey: "app_demo12345",
      userToken: "3fa85f64-5717-4562-b3fc-2c963f66afa6",
      isPaying: true,
      plan: "pro",
      mrr: 299.5,
      currency: "USD",
      timestamp: 1758000000,
    };
    const secret = "cpt_sk_test_secret_0123456789abcdef";
    expect(signAttributes(secret, input)).toBe("59bc1177751f4c36f9caeed8c763cde9ee18835196acd1b6d4ce3b1ea2dc0273");
    expect(signatureMatches(secret, input, "59BC1177751F4C36F9CAEED8C763CDE9EE18835196ACD1B6D4CE3B1EA2DC0273")).toBe(true);
    expect(signatureMatches(secret, { ...input, mrr: 299.51 }, "59bc1177751f4c36f9caeed8c763cde9ee18835196acd1b6d4ce3b1ea2dc0273")).toBe(false);
    expect(signatureMatches(secret, input, "not-hex")).toBe(false);
  });
});

describe("cpt-user-attrs-v2: a body with a company", () => {
  const base = { appKey: "app_testkey1234567", userToken: "00000000-0000-4000-8000-000000000001", timestamp: 1700000000 };

  it("adds the company's six lines before the timestamp, its attributes as canonical JSON", () => {
    const input = {
      ...base,
      isPaying: true,
      company: { id: "acct_42", name: "Acme GmbH", mrr: 1200.5, currency: "eur", plan: "business", attributes: { seats: 40, region: "eu", trial: false } },
    };
    expect(canonicalAttributeString(input).split("\n")).toEqual([
      "cpt-user-attrs-v2",
      "app_testkey1234567",
      "00000000-0000-4000-8000-000000000001",
      "true",
      "unset",
      "unset",
      "unset",
      "acct_42",
      "Acme GmbH",
      "1200.5",
      "eur",
      "business",
      '{"region":"eu","seats":40,"trial":false}',
      "1700000000",
    ]);
    expect(signAttributes("7".repeat(64), input)).toBe(signAttributes("7".repeat(64), { ...input, company: { ...input.company, attributes: { trial: false, seats: 40, region: "eu" } } }));
  });

  it("writes fields left out as unset, and leaving a company as six nulls", () => {
    expect(canonicalAttributeString({ ...base, company: { id: "acct_42", plan: null } }).split("\n").slice(7, 13)).toEqual(["acct_42", "unset", "unset", "unset", "null", "unset"]);
    expect(canonicalAttributeString({ ...base, company: null }).split("\n").slice(7, 13)).toEqual(["null", "null", "null", "null", "null", "null"]);
  });

  it("never matches a v1 signature of the same attributes, nor one of another company", () => {
    const secret = "7".repeat(64);
    const v1 = signAttributes(secret, { ...base, isPaying: true });
    expect(signatureMatches(secret, { ...base, isPaying: true, company: null }, v1)).toBe(false);
    const acme = signAttributes(secret, { ...base, company: { id: "acct_42", mrr: 10 } });
    expect(signatureMatches(secret, { ...base, company: { id: "acct_42", mrr: 10000 } }, acme)).toBe(false);
    expect(signatureMatches(secret, { ...base, company: { id: "acct_43", mrr: 10 } }, acme)).toBe(false);
  });
});

describe("the cpt-user-attrs-v2 example of docs/identifying-users.md", () => {
  it("is the string the server verifies for the documented body", async () => {
    const { readFileSync } = await import("node:fs");
    const guide = readFileSync(new URL("../../../../docs/identifying-users.md", import.meta.url), "utf8");
    const documented = /^```\n(cpt-user-attrs-v2\n[\s\S]*?)\n```$/m.exec(guide)?.[1];
    const company = { id: "acct_42", name: "Acme GmbH", mrr: 1200.5, currency: "EUR", plan: "business", attributes: { seats: 40, region: "eu" } };
    expect(canonicalAttributeString({ appKey: "app_demo12345", userToken: "user-42", company, timestamp: 1758000000 })).toBe(documented);
  });
});

describe("the SDK's signing string", () => {
  it.each([
    [{ isPaying: true, plan: "pro", mrr: 299.5, currency: "USD" }],
    [{ company: { id: "acct_42", name: "Acme GmbH", mrr: 1200.505, currency: "eur", plan: null, attributes: { seats: 40, "a.b": "x", trial: false, z: null, ratio: 0.25 } } }],
    [{ isPaying: false, company: { id: "acct_42" } }],
    [{ mrr: null, company: null }],
  ])("is the server's for %j", (attributes) => {
    const input = { appKey: "app_demo12345", userToken: "user-42", timestamp: 1758000000 };
    expect(userAttributesSigningString({ ...input, attributes })).toBe(canonicalAttributeString({ ...input, ...attributes }));
  });
});
