import type { MarkdownBlock, MarkdownInline, MarkdownListItem } from "@tidings/client";
import { safeHref, safeImageSrc } from "@tidings/client";
import { decodeHTMLStrict } from "entities";
import type { Token, Tokens } from "marked";

/**
 * Containers nested deeper than this (quotes, lists, emphasis in emphasis) are flattened to their
 * text, so a hostile note cannot exhaust a renderer's stack. Real notes nest two or three levels.
 */
export const MAX_MARKDOWN_DEPTH = 16;

/**
 * `marked`'s GFM tokens as renderer-neutral blocks, with the safety rules of every renderer:
 * links only to http(s) with a host or mailto, images only from https (any other keeps its text),
 * raw HTML shown as the text it is, nesting capped at {@link MAX_MARKDOWN_DEPTH}.
 *
 * @example
 * ```ts
 * markdownBlocks(marked.lexer("# 1.2\n\n[docs](https://example.com)"));
 * // [{ type: "heading", level: 1, … }, { type: "paragraph", children: [{ type: "link", … }] }]
 * ```
 */
export function markdownBlocks(tokens: readonly Token[]): MarkdownBlock[] {
  return blocks(tokens, 0);
}

function blocks(tokens: readonly Token[], depth: number): MarkdownBlock[] {
  const out: MarkdownBlock[] = [];
  for (const token of tokens) {
    const block = toBlock(token as Tokens.Generic, depth);
    if (block !== null) out.push(block);
  }
  return out;
}

function toBlock(token: Tokens.Generic, depth: number): MarkdownBlock | null {
  switch (token.type) {
    case "heading":
      return { type: "heading", level: Math.min(6, Math.max(1, token.depth as number)) as 1 | 2 | 3 | 4 | 5 | 6, children: trimmed(inlines(token.tokens, depth + 1)) };
    case "paragraph":
    case "text":
      // A tight list item holds `text` blocks: a paragraph without the spacing.
      return { type: "paragraph", children: token.tokens === undefined ? plain(decode(token.text as string)) : trimmed(inlines(token.tokens, depth + 1)) };
    case "code":
      return { type: "code", text: token.text as string, language: typeof token.lang === "string" && token.lang !== "" ? token.lang : null };
    case "hr":
      return { type: "rule" };
    case "html":
      return { type: "paragraph", children: plain(withoutTrailingNewlines(token.text as string)) };
    case "blockquote":
      if (depth >= MAX_MARKDOWN_DEPTH) return flattened(token);
      return { type: "quote", children: blocks(token.tokens ?? [], depth + 1) };
    case "list":
      if (depth >= MAX_MARKDOWN_DEPTH) return flattened(token);
      return { type: "list", ordered: token.ordered === true, start: typeof token.start === "number" ? token.start : 1, items: (token.items as Tokens.ListItem[]).map((item) => listItem(item, depth + 1)) };
    case "table": {
      const table = token as unknown as Tokens.Table;
      return {
        type: "table",
        align: table.align.map((a) => a ?? null),
        header: table.header.map((cell) => inlines(cell.tokens, depth + 1)),
        rows: table.rows.map((row) => row.map((cell) => inlines(cell.tokens, depth + 1))),
      };
    }
    default:
      // space, def (reference definitions are resolved by the lexer) and anything unknown draw nothing.
      return null;
  }
}

function listItem(item: Tokens.ListItem, depth: number): MarkdownListItem {
  const children = blocks(
    item.tokens.filter((t) => t.type !== "checkbox"),
    depth,
  );
  return { checked: item.task ? item.checked === true : null, children };
}

/** A container past the depth cap: its visible text as one paragraph. */
function flattened(token: Tokens.Generic): MarkdownBlock {
  return { type: "paragraph", children: plain(textOf(blocks(token.type === "list" ? (token.items as Tokens.ListItem[]).flatMap((i) => i.tokens) : (token.tokens ?? []), MAX_MARKDOWN_DEPTH - 1))) };
}

function textOf(list: readonly MarkdownBlock[]): string {
  const parts: string[] = [];
  const inline = (tokens: readonly MarkdownInline[]) => {
    for (const t of tokens) {
      if (t.type === "text" || t.type === "code") parts.push(t.text);
      else if (t.type === "image") parts.push(t.alt);
      else if (t.type === "break") parts.push(" ");
      else if ("children" in t) inline(t.children);
    }
  };
  const visit = (bs: readonly MarkdownBlock[]) => {
    for (const b of bs) {
      if (parts.length > 0) parts.push(" ");
      if (b.type === "heading" || b.type === "paragraph") inline(b.children);
      else if (b.type === "code") parts.push(b.text);
      else if (b.type === "quote") visit(b.children);
      else if (b.type === "list") b.items.forEach((item) => visit(item.children));
      else if (b.type === "table") [b.header, ...b.rows].forEach((row) => row.forEach(inline));
    }
  };
  visit(list);
  return parts.join("").replace(/\s+/g, " ").trim();
}

function inlines(tokens: readonly Token[] | undefined, depth: number, inLink = false): MarkdownInline[] {
  const out: MarkdownInline[] = [];
  for (const token of tokens ?? []) push(out, toInline(token as Tokens.Generic, depth, inLink));
  return out;
}

/** Drops the spaces a browser collapses at the edges of a paragraph. */
function trimmed(list: MarkdownInline[]): MarkdownInline[] {
  const first = list[0];
  if (first?.type === "text") list[0] = { type: "text", text: first.text.trimStart() };
  const last = list[list.length - 1];
  if (last?.type === "text") list[list.length - 1] = { type: "text", text: last.text.trimEnd() };
  return list.filter((t) => t.type !== "text" || t.text !== "");
}

/** Appends tokens, merging neighbouring text so a renderer draws one run. */
function push(out: MarkdownInline[], tokens: readonly MarkdownInline[]): void {
  for (const token of tokens) {
    const last = out[out.length - 1];
    if (token.type === "text" && last?.type === "text") out[out.length - 1] = { type: "text", text: last.text + token.text };
    else if (token.type !== "text" || token.text !== "") out.push(token);
  }
}

function toInline(token: Tokens.Generic, depth: number, inLink: boolean): MarkdownInline[] {
  switch (token.type) {
    case "text":
      // A line break inside a paragraph is soft: a space, as a browser shows it. An autolink's
      // text (no `escaped` flag) is literal: character references are not read there.
      return token.tokens === undefined ? plain(softBreaks("escaped" in token ? decode(token.text as string) : (token.text as string))) : inlines(token.tokens, depth, inLink);
    case "escape":
      return plain(decode(token.text as string));
    case "html":
      return plain(token.text as string);
    case "codespan":
      return [{ type: "code", text: token.text as string }];
    case "br":
      return [{ type: "break" }];
    case "strong":
    case "em":
    case "del": {
      const children = inlines(token.tokens, depth + 1, inLink);
      if (depth >= MAX_MARKDOWN_DEPTH) return children.flatMap(flatText);
      return [{ type: token.type === "em" ? "emphasis" : token.type === "del" ? "strikethrough" : "strong", children }];
    }
    case "link": {
      const children = inlines(token.tokens, depth + 1, true);
      const href = safeHref(token.autolink === true ? (token.href as string) : decode(token.href as string));
      // A link in link text (GFM forbids it) and a refused target both keep only their text.
      if (inLink || href === null || depth >= MAX_MARKDOWN_DEPTH) return children.flatMap(flatText);
      return [{ type: "link", href, title: title(token.title), children }];
    }
    case "image": {
      const alt = decode(token.text as string);
      const src = safeImageSrc(decode(token.href as string));
      if (inLink || src === null) return plain(alt);
      return [{ type: "image", src, alt, title: title(token.title) }];
    }
    default:
      return plain(typeof token.raw === "string" ? token.raw : "");
  }
}

function flatText(token: MarkdownInline): MarkdownInline[] {
  if (token.type === "link" || token.type === "strong" || token.type === "emphasis" || token.type === "strikethrough") return token.children.flatMap(flatText);
  if (token.type === "image") return plain(token.alt);
  return [token];
}

/**
 * Each line break with the spaces and tabs around it as one space. By hand, because a regex such as
 * `/[ \t]*\n/` tries again from every space of a long run that no newline ends: quadratic.
 */
function softBreaks(text: string): string {
  if (!text.includes("\n")) return text;
  const lines = text.split("\n");
  return lines.map((line, i) => line.slice(i === 0 ? 0 : blanksFrom(line, 0, 1), i === lines.length - 1 ? line.length : blanksFrom(line, line.length - 1, -1) + 1)).join(" ");
}

/** By hand for the same reason: `/\n+$/` tries again from every newline of a run that text follows. */
function withoutTrailingNewlines(text: string): string {
  let end = text.length;
  while (text[end - 1] === "\n") end--;
  return text.slice(0, end);
}

/** The index of the first character that is not a space or tab, walking from `at` by `step`. */
function blanksFrom(line: string, at: number, step: 1 | -1): number {
  let i = at;
  while (line[i] === " " || line[i] === "\t") i += step;
  return i;
}

const plain = (text: string): MarkdownInline[] => [{ type: "text", text }];
const decode = (text: string): string => decodeHTMLStrict(text);
const title = (raw: unknown): string | null => (typeof raw === "string" && raw !== "" ? decode(raw) : null);
