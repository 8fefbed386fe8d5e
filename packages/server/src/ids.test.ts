import { describe, expect, it } from "vitest";
import { newId, pooledRandomBytes, randomToken } from "./ids.js";

describe("newId", () => {
  it("is the prefix and 26 lowercase base32 characters, ordered by time", () => {
    const a = newId("app", new Date("2026-01-01T00:00:00Z"));
    const b = newId("app", new Date("2026-01-01T00:00:01Z"));
    expect(a).toMatch(/^app_[0-9a-z]{26}$/);
    expect(a < b).toBe(true);
    expect(newId("app")).not.toBe(newId("app"));
  });
});

describe("randomToken", () => {
  it("has the requested length of URL-safe characters", () => {
    const token = randomToken(28);
    expect(token).toMatch(/^[A-Za-z0-9_-]{28}$/);
  });
});

describe("pooledRandomBytes", () => {
  it("never repeats bytes across refills of its pool", () => {
    const seen = new Set<string>();
    // 600 × 16 bytes runs through the 4 KB pool more than twice.
    for (let i = 0; i < 600; i++) seen.add(pooledRandomBytes(16).toString("hex"));
    expect(seen.size).toBe(600);
    const ids = new Set(Array.from({ length: 600 }, () => newId("vote")));
    expect(ids.size).toBe(600);
  });
});
