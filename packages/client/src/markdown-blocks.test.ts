import { MarkdownBlocksSchema, type MarkdownBlocks as WireBlocks } from "@tidings/protocol";
import Value from "typebox/value";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { MarkdownBlock } from "./markdown-blocks.js";
import type { ChangelogEntry } from "./types.js";

// The SDK declares its own copy of the wire shapes (its published types must not import the
// server's schema library); these checks fail when the two drift.
type Assignable<A, B> = [A] extends [B] ? true : false;

/** Every block and inline variant the SDK declares, nested, as a renderer may receive them. */
const everyVariant: MarkdownBlock[] = [
  { type: "heading", level: 2, children: [{ type: "text", text: "1.2" }] },
  {
    type: "paragraph",
    children: [
      { type: "code", text: "x" },
      { type: "break" },
      { type: "strong", children: [{ type: "emphasis", children: [{ type: "strikethrough", children: [{ type: "text", text: "s" }] }] }] },
      { type: "link", href: "https://example.com", title: null, children: [{ type: "text", text: "docs" }] },
      { type: "image", src: "https://example.com/a.png", alt: "shot", title: "T" },
    ],
  },
  { type: "list", ordered: true, start: 3, items: [{ checked: true, children: [{ type: "quote", children: [{ type: "rule" }] }] }] },
  { type: "code", text: "a", language: null },
  { type: "table", align: ["left", null], header: [[{ type: "text", text: "h" }], []], rows: [[[], [{ type: "text", text: "c" }]]] },
];

describe("Markdown block types", () => {
  it("are assignable both ways to the protocol schema's blocks", () => {
    expectTypeOf<Assignable<MarkdownBlock[], WireBlocks>>().toEqualTypeOf<true>();
    expectTypeOf<Assignable<WireBlocks, MarkdownBlock[]>>().toEqualTypeOf<true>();
    expectTypeOf<Assignable<NonNullable<ChangelogEntry["blocks"]>, WireBlocks>>().toEqualTypeOf<true>();
  });

  it("declare only documents the protocol schema accepts, variant by variant", () => {
    expect(Value.Errors(MarkdownBlocksSchema, everyVariant)).toEqual([]);
  });

  it("are checked by a schema that refuses a block it does not declare", () => {
    expect(Value.Check(MarkdownBlocksSchema, [{ type: "html", text: "<b>" }])).toBe(false);
  });
});
