import { describe, expect, it } from "vitest";
import { approximateBytes } from "./entry-size.js";

describe("approximateBytes", () => {
  it("counts text by its length and containers by what they hold", () => {
    expect(approximateBytes("")).toBe(16);
    expect(approximateBytes("x".repeat(1000))).toBe(2016);
    expect(approximateBytes([1, 2, 3])).toBe(16 + 3 * 8 + 3 * 8);
    expect(approximateBytes({ a: "xx", b: null })).toBe(24 + (8 + 20) + (8 + 8));
    expect(approximateBytes(new Map([["k", 1]]))).toBe(32 + 24 + 18 + 8);
    expect(approximateBytes(new Set(["k"]))).toBe(32 + 16 + 18);
    expect(approximateBytes(new Uint8Array(100))).toBe(164);
  });

  it("counts a cached page at least at its JSON's size, and within a few times it", () => {
    const items = Array.from({ length: 50 }, (_, i) => ({ id: `fr_${i}`, title: `Idea ${i}`, votes: i, mine: false, tags: [{ slug: "ui" }] }));
    const json = JSON.stringify(items).length;
    expect(approximateBytes(items)).toBeGreaterThanOrEqual(json);
    expect(approximateBytes(items)).toBeLessThanOrEqual(4 * json);
  });

  it("stops at a depth a cached value never reaches, so a cycle ends", () => {
    const a: Record<string, unknown> = {};
    a.self = a;
    expect(approximateBytes(a)).toBeLessThan(1000);
  });
});
