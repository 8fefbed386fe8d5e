import type { FeatureRequestItem } from "./feature-request-page.js";

/** Where a page starts: an offset into the listing, or the cursor the server gave. */
export type PageStart = { offset: number } | { cursor: string };

/** `items` followed by those of `more` whose id is not there yet. */
export function appendUnique(items: readonly FeatureRequestItem[], more: readonly FeatureRequestItem[]): FeatureRequestItem[] {
  const ids = new Set(items.map((item) => item.id));
  const out = [...items];
  for (const item of more) {
    if (ids.has(item.id)) continue;
    ids.add(item.id);
    out.push(item);
  }
  return out;
}

/** Where the page after `page` starts: its cursor, else the offset past it. */
export function nextStart(from: PageStart, page: { requests: unknown[]; nextCursor: string | null }): PageStart {
  if (page.nextCursor !== null) return { cursor: page.nextCursor };
  return { offset: ("offset" in from ? from.offset : 0) + page.requests.length };
}
