/**
 * A URL slug from a display name: lowercase ASCII letters and digits joined by single hyphens.
 *
 * @example
 * ```ts
 * slugify("Ça va? Dark Mode!"); // "ca-va-dark-mode"
 * ```
 */
export function slugify(name: string, fallback = "item"): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 64)
    .replace(/-+$/, "");
  return slug.length >= 2 ? slug : fallback;
}

/** The first of `base`, `base-2`, `base-3`… that `taken` does not contain. */
export function uniqueSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base.slice(0, 60)}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}
