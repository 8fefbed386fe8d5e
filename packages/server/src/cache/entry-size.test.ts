import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toItem, type ItemRow } from "../feature-requests/items.js";
import { approximateBytes, approximateBytesOfJson } from "./entry-size.js";

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

/** Printable text, non-ASCII included (JSON escapes none of it), as a request's fields hold. */
const text = (maxLength: number) => fc.string({ unit: fc.oneof(fc.constantFrom(..."abc XYZ09.,!?-'"), fc.constantFrom(..."éüßçñ日本語中文한국어"), fc.constantFrom("🙂", "👍")), maxLength });
const nullable = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null });
// Its recent commenters are drawn beside it (`commenter`) and written into it as the database keeps them.
const row: fc.Arbitrary<Omit<ItemRow, "recentCommenters">> = fc.record({
  id: fc.string({ minLength: 1, maxLength: 26 }).map((s) => `fr_${s}`),
  appId: fc.constant("app_1"),
  boardId: fc.constant("board_1"),
  title: text(120),
  description: text(2000),
  moderation: fc.constantFrom("approved", "pending"),
  voteCount: fc.nat(100_000),
  importedVotes: fc.nat(1000),
  commentCount: fc.nat(500),
  columnId: nullable(fc.constant("col_1")),
  columnSlug: nullable(fc.constantFrom("planned", "in-progress")),
  columnName: nullable(text(40)),
  columnColor: nullable(fc.constant("#22c55e")),
  versionId: nullable(fc.constant("ver_1")),
  versionLabel: nullable(fc.constant("2.4.0")),
  versionReleased: nullable(fc.constantFrom(0, 1)),
  requesterName: nullable(text(60)),
  requesterPublicId: nullable(fc.string({ maxLength: 36 })),
  createdAt: fc.constant("2026-11-30T09:00:00.000Z"),
  updatedAt: fc.constant("2026-11-30T09:00:00.000Z"),
});
const commenter = fc.record({ authorName: nullable(text(40)), clerkUserId: nullable(fc.string({ maxLength: 36 })), avatarUrl: fc.constant(null) });
const tag = fc.record({ id: fc.constant("tag_1"), name: text(30), slug: fc.constant("ui"), color: fc.constant("#a855f7") });
/** A listing page as the listing builds it: its items from `toItem`. */
const page = fc
  .array(fc.tuple(row, fc.array(commenter, { maxLength: 4 }), fc.array(tag, { maxLength: 3 }), fc.boolean()), { maxLength: 50 })
  .map((items) => ({
    requests: items.map(([r, commenters, tags, mine]) =>
      toItem({ ...r, recentCommenters: commenters.length === 0 ? null : JSON.stringify(commenters) }, { hasVoted: mine, isOwnRequest: false }, tags),
    ),
    total: items.length,
    hasMore: false,
    nextCursor: null,
  }));

describe("approximateBytesOfJson", () => {
  it("counts a listing page at least as approximateBytes does and at most twice that", () => {
    fc.assert(
      fc.property(page, (value) => {
        const estimate = approximateBytesOfJson(JSON.stringify(value));
        const walked = approximateBytes(value);
        expect(estimate).toBeGreaterThanOrEqual(walked);
        expect(estimate).toBeLessThanOrEqual(2 * walked);
      }),
      { numRuns: 300 },
    );
  });
});
