import { randomBytes } from "node:crypto";
import { ApiError } from "./http/errors.js";

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
    const candidate = `${base.slice(0, 60).replace(/-+$/, "")}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** How often a derived slug is derived again after concurrent writers took the previous ones. */
const SLUG_ATTEMPTS = 5;

/**
 * Stores a row under a slug unique in its scope, whatever concurrent writers do. `insert(slug)`
 * writes with `on conflict (scope, slug) do nothing` and answers whether its row went in: a
 * concurrent request may have taken the slug after `takenSlugs` was read. A slug the client
 * chose (`requested`) is then 409 `slug_taken`, as when it was taken before. A slug derived from
 * `base` is `base`, `base-2`… as {@link uniqueSlug} picks; one lost to a concurrent writer gets a
 * random suffix instead, so writers deriving the same slug at once do not collide again.
 * Answers the slug stored.
 *
 * @example
 * ```ts
 * const slug = await insertWithSlug(input.slug, slugify(input.name, "app"), readTakenSlugs, insertRow);
 * ```
 */
export async function insertWithSlug(
  requested: string | undefined,
  base: string,
  takenSlugs: () => Promise<ReadonlySet<string>>,
  insert: (slug: string) => Promise<boolean>,
): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const taken = await takenSlugs();
    if (requested !== undefined && taken.has(requested)) throw new ApiError("slug_taken");
    const slug = requested ?? uniqueSlug(attempt === 1 ? base : `${base.slice(0, 58).replace(/-+$/, "")}-${randomSuffix()}`, taken);
    if (await insert(slug)) return slug;
    if (requested !== undefined || attempt >= SLUG_ATTEMPTS) throw new ApiError("slug_taken");
  }
}

/** Five random slug characters (a-z, 0-9). */
function randomSuffix(): string {
  return Array.from(randomBytes(5), (byte) => "abcdefghijklmnopqrstuvwxyz0123456789"[byte % 36]).join("");
}
