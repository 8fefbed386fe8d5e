import { describe, expect, it } from "vitest";
import { canonicalNumber, hmacSha256Hex, signUserAttributes, userAttributesSigningString } from "./signing.js";

describe("cpt-user-attrs-v1 signing (wire-contract §5 vectors)", () => {
  it("matches vector 1", async () => {
    const { signature } = await signUserAttributes({
      secret: "7".repeat(64),
      appKey: "app_testkey1234567",
      userToken: "00000000-0000-4000-8000-000000000001",
      attributes: { isPaying: true, plan: "pro", mrr: 12, currency: "usd" },
      timestamp: 1700000000,
    });
    expect(signature).toBe("a18280f71c28b3d57412815b6096987e31ca5a510915ab975e1fb1f9a586442d");
  });

  it("matches vector 2 (null plan, unset currency)", async () => {
    const { signature } = await signUserAttributes({
      secret: "secret_key_12345",
      appKey: "app_testkey1234567",
      userToken: "00000000-0000-4000-8000-000000000001",
      attributes: { isPaying: false, plan: null, mrr: 299.5 },
      timestamp: 1700000000,
    });
    expect(signature).toBe("9fa9f8bd62f67bf836ac2a9f8984483b5e064302677e1b82f16e86da8ca2648f");
  });

  it("matches vector 3", async () => {
    const { signature, timestamp } = await signUserAttributes({
      secret: "cpt_sk_test_secret_0123456789abcdef",
      appKey: "app_demo12345",
      userToken: "3fa85f64-5717-4562-b3fc-2c963f66afa6",
      attributes: { isPaying: true, plan: "pro", mrr: 299.5, currency: "USD" },
      timestamp: 1758000000,
    });
    expect(signature).toBe("59bc1177751f4c36f9caeed8c763cde9ee18835196acd1b6d4ce3b1ea2dc0273");
    expect(timestamp).toBe(1758000000);
  });

  it("writes absent attributes as unset and null as null", () => {
    expect(userAttributesSigningString({ appKey: "app_x", userToken: "t", attributes: { plan: null }, timestamp: 5 })).toBe(
      ["cpt-user-attrs-v1", "app_x", "t", "unset", "null", "unset", "unset", "5"].join("\n"),
    );
  });

  it("canonicalises numbers to at most two decimals", () => {
    const cases: [number, string][] = [
      [1200, "1200"],
      [99.5, "99.5"],
      [10.125, "10.13"],
      [1200.005, "1200.01"],
      [99.995, "100"],
      [1.235, "1.24"],
      [0, "0"],
    ];
    for (const [input, expected] of cases) expect(canonicalNumber(input), String(input)).toBe(expected);
    expect(() => canonicalNumber(Number.NaN)).toThrow(RangeError);
  });

  it("computes the X-User-Hash the server expects (HMAC of the token)", async () => {
    // RFC 4231 test case 2.
    expect(await hmacSha256Hex("Jefe", "what do ya want for nothing?")).toBe("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  });
});

describe("cpt-user-attrs-v2 signing (a company in the body)", () => {
  const base = { appKey: "app_demo12345", userToken: "user-42", timestamp: 1758000000 };

  it("writes the company's six lines before the timestamp, attributes as canonical JSON", () => {
    const company = { id: "acct_42", name: "Acme GmbH", mrr: 1200.5, currency: "EUR", plan: "business", attributes: { seats: 40, region: "eu" } };
    expect(userAttributesSigningString({ ...base, attributes: { company } }).split("\n")).toEqual([
      "cpt-user-attrs-v2",
      "app_demo12345",
      "user-42",
      "unset",
      "unset",
      "unset",
      "unset",
      "acct_42",
      "Acme GmbH",
      "1200.5",
      "EUR",
      "business",
      '{"region":"eu","seats":40}',
      "1758000000",
    ]);
  });

  it("writes leaving a company as six nulls, and left-out fields as unset", () => {
    expect(userAttributesSigningString({ ...base, attributes: { isPaying: true, company: null } }).split("\n").slice(3, 13)).toEqual(["true", "unset", "unset", "unset", ...Array(6).fill("null")]);
    expect(userAttributesSigningString({ ...base, attributes: { company: { id: "a", plan: null } } }).split("\n").slice(7, 13)).toEqual(["a", "unset", "unset", "unset", "null", "unset"]);
  });

  it("signs a body with a company differently from the same body without one", async () => {
    const secret = "7".repeat(64);
    const without = await signUserAttributes({ ...base, secret, attributes: { isPaying: true } });
    const withNone = await signUserAttributes({ ...base, secret, attributes: { isPaying: true, company: null } });
    expect(withNone.signature).not.toBe(without.signature);
  });
});
