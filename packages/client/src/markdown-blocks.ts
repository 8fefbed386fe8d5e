// Release-note Markdown as the server sends it in a changelog entry's `blocks`: one parser (the
// server's) for every renderer. Kept in step with @tidings/protocol's MarkdownBlocksSchema by a test.

/** Inline content of a Markdown block, ready for any renderer (no HTML, no DOM). */
export type MarkdownInline =
  | { type: "text"; text: string }
  | { type: "code"; text: string }
  | { type: "break" }
  | { type: "strong" | "emphasis" | "strikethrough"; children: MarkdownInline[] }
  /** A link whose `href` is http(s) or mailto; any other target is left out as plain text. */
  | { type: "link"; href: string; title: string | null; children: MarkdownInline[] }
  /** An image with an https `src` (as the server allows); any other source becomes its alt text. */
  | { type: "image"; src: string; alt: string; title: string | null };

/** Horizontal alignment of a table column; null when the delimiter row gives none. */
export type MarkdownAlign = "left" | "center" | "right" | null;

/** One item of a list: its blocks and, for a task item (`- [x] done`), whether it is checked. */
export interface MarkdownListItem {
  checked: boolean | null;
  children: MarkdownBlock[];
}

/** A block of Markdown: the GFM subset the server renders for release notes; raw HTML arrives as text. */
export type MarkdownBlock =
  | { type: "heading"; level: 1 | 2 | 3 | 4 | 5 | 6; children: MarkdownInline[] }
  | { type: "paragraph"; children: MarkdownInline[] }
  | { type: "list"; ordered: boolean; start: number; items: MarkdownListItem[] }
  | { type: "code"; text: string; language: string | null }
  | { type: "quote"; children: MarkdownBlock[] }
  | { type: "rule" }
  | { type: "table"; align: MarkdownAlign[]; header: MarkdownInline[][]; rows: MarkdownInline[][][] };
