import type { MarkdownBlock } from "./markdown-blocks.js";

/** A published changelog release (§7.6), Markdown body. */
export interface ChangelogEntry {
  id: string;
  title: string;
  /** The notes as Markdown. */
  body: string;
  /** The notes rendered to sanitised HTML, for browsers. */
  html?: string;
  /**
   * The notes as renderer-neutral tokens (the same parse as `html`), for renderers without HTML.
   * Absent from servers older than this field: show `body` as plain text then.
   */
  blocks?: MarkdownBlock[];
  versionLabel?: string | null;
  publishedAt: string;
  linkedRequests?: { id: string; title: string }[];
}

/** One page of published releases, newest first; pass `nextCursor` back for the next one. */
export interface ChangelogPage {
  entries: ChangelogEntry[];
  hasMore: boolean;
  nextCursor: string | null;
}
