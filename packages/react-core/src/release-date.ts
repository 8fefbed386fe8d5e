/**
 * A release's publication day in the reader's language ("February 1, 2026", "1. Februar 2026"),
 * or "" when the server's timestamp cannot be read.
 *
 * @example
 * ```ts
 * formatReleaseDate("2026-02-01T12:00:00Z", "de"); // "1. Februar 2026"
 * ```
 */
export function formatReleaseDate(publishedAt: string, locale: string): string {
  const date = new Date(publishedAt);
  return Number.isNaN(date.getTime()) ? "" : date.toLocaleDateString(locale, { year: "numeric", month: "long", day: "numeric" });
}
