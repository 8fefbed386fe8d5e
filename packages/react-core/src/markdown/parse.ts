import { parseBlocks, type RawBlock } from "./blocks.js";
import { parseInline, type LinkDefinition } from "./inline.js";
import type { MarkdownBlock } from "./types.js";

/**
 * Release-note Markdown as renderer-neutral tokens: the GFM subset the server renders (headings,
 * paragraphs, lists with task items, emphasis, strong, strikethrough, inline code, code blocks,
 * quotes, rules, tables, links, autolinks, images, line breaks), with links and images kept only
 * for http(s)/mailto and https targets. Raw HTML stays text and is never interpreted. Runs in
 * time linear in the input, whatever the input.
 *
 * @example
 * ```ts
 * parseMarkdown("# 1.2\n\n- **Faster** sync, see [docs](https://example.com)");
 * // [{ type: "heading", level: 1, … }, { type: "list", ordered: false, … }]
 * ```
 */
export function parseMarkdown(source: string): MarkdownBlock[] {
  const { blocks, definitions } = parseBlocks(source);
  return blocks.map((block) => toBlock(block, definitions));
}

function toBlock(block: RawBlock, definitions: ReadonlyMap<string, LinkDefinition>): MarkdownBlock {
  switch (block.type) {
    case "heading":
      return { type: "heading", level: block.level, children: parseInline(block.raw, definitions) };
    case "paragraph":
      return { type: "paragraph", children: parseInline(block.raw, definitions) };
    case "quote":
      return { type: "quote", children: block.children.map((child) => toBlock(child, definitions)) };
    case "list":
      return {
        type: "list",
        ordered: block.ordered,
        start: block.start,
        items: block.items.map((item) => ({ checked: item.checked, children: item.children.map((child) => toBlock(child, definitions)) })),
      };
    case "table":
      return {
        type: "table",
        align: block.align,
        header: block.header.map((cell) => parseInline(cell, definitions)),
        rows: block.rows.map((row) => row.map((cell) => parseInline(cell, definitions))),
      };
    default:
      return block;
  }
}
