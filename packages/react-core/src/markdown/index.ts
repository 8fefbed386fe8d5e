export { parseMarkdown } from "./parse.js";
export { parseInline, normalizeLabel, type LinkDefinition } from "./inline.js";
export { safeHref, safeImageSrc } from "./safe-href.js";
export type { MarkdownAlign, MarkdownBlock, MarkdownInline, MarkdownListItem } from "./types.js";
