import { describe, expect, it } from "vitest";
import { METADATA_LIMITS, REDACTED, sanitizeMetadata, TRUNCATED_SUFFIX } from "./metadata.js";

describe("sanitizeMetadata", () => {
  it("keeps ordinary keys and values", () => {
    expect(sanitizeMetadata({ sdk: "tidings-js", "screen.name": "Settings", count: 3, ok: true, none: null, list: [1, "a"] })).toEqual({
      sdk: "tidings-js",
      "screen.name": "Settings",
      count: 3,
      ok: true,
      none: null,
      list: [1, "a"],
    });
  });

  it("answers {} for anything but an object", () => {
    for (const input of [undefined, null, "text", 42, [1, 2]]) expect(sanitizeMetadata(input)).toEqual({});
  });

  it("drops keys outside [A-Za-z0-9_.:-]{1,64}", () => {
    expect(sanitizeMetadata({ "bad key": 1, ["x".repeat(65)]: 2, "ünï": 3, "ok:key-1.2_3": 4 })).toEqual({ "ok:key-1.2_3": 4 });
  });

  it("redacts credential-looking keys at every level", () => {
    expect(sanitizeMetadata({ password: "hunter2", apiKey: "sk", nested: { authToken: "t", safe: "s" } })).toEqual({
      apiKey: REDACTED,
      nested: { authToken: REDACTED, safe: "s" },
      password: REDACTED,
    });
  });

  it("cuts strings over 512 characters and marks them", () => {
    const out = sanitizeMetadata({ log: "y".repeat(600), exact: "z".repeat(512) });
    expect(out.log).toBe("y".repeat(512) + TRUNCATED_SUFFIX);
    expect(out.exact).toBe("z".repeat(512));
  });

  it("cuts between whole characters and drops lone surrogates", () => {
    const out = sanitizeMetadata({ emoji: `y${"🦄".repeat(300)}`, family: "👨‍👩‍👧‍👦".repeat(60), broken: "a\uD800b" });
    expect(out.emoji).toBe(`y${"🦄".repeat(255)}${TRUNCATED_SUFFIX}`);
    expect(out.family).toBe("👨‍👩‍👧‍👦".repeat(46) + TRUNCATED_SUFFIX);
    expect(out.broken).toBe("ab");
    expect(JSON.stringify(out)).not.toMatch(/\\ud[89a-f]/i);
  });

  it("keeps at most 24 keys per object, the first in sorted order", () => {
    const many = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${String(i).padStart(2, "0")}`, i]));
    const out = sanitizeMetadata({ a_nested: many, ...many });
    expect(Object.keys(out)).toHaveLength(24);
    expect(Object.keys(out.a_nested as object)).toEqual(Object.keys(many).slice(0, 24));
  });

  it("replaces values nested 4 deep or more with null", () => {
    expect(sanitizeMetadata({ a: { b: { c: { d: "deep" }, c2: "ok" } } })).toEqual({ a: { b: { c: { d: null }, c2: "ok" } } });
  });

  it("stays within 8192 bytes, dropping whole keys", () => {
    const input = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`key${String(i).padStart(2, "0")}`, "v".repeat(500)]));
    const out = sanitizeMetadata(input);
    expect(Buffer.byteLength(JSON.stringify(out))).toBeLessThanOrEqual(METADATA_LIMITS.maxBytes);
    expect(Object.keys(out)).toEqual(Object.keys(input).slice(0, 16));
    for (const value of Object.values(out)) expect(value).toBe("v".repeat(500));
  });
});
