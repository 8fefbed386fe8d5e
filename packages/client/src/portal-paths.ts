/**
 * The portal's addresses, one scheme for the server (which answers each with a rendered page and
 * redirects wrong slugs) and the portal app (which pushes them as the visitor moves).
 * Paths are relative to `/p/<APP_KEY>`; a request's and a release's carry a readable slug after
 * their id, which only the id decides.
 */
export type PortalRoute =
  | { screen: "home" }
  | { screen: "roadmap"; column?: string | undefined }
  | { screen: "requests" }
  | { screen: "request"; id: string; slug?: string | undefined }
  | { screen: "changelog" }
  | { screen: "release"; id: string; slug?: string | undefined }
  | { screen: "feedback" }
  | { screen: "profile"; userId: string };

/**
 * The combining diacritical marks (the block, its Extended and Supplement blocks, those for
 * symbols, the half marks): every mark in the decomposition of a character holding an ASCII letter
 * or digit is in the first, and text typed decomposed uses these. Marks of other scripts stand
 * between letters the slug drops anyway. Not `\p{M}`: a React Native release build spells that
 * out as a class of every mark, 4 KB of the app's JavaScript.
 */
const DIACRITICS = /[\u0300-\u036f\u1ab0-\u1aeb\u1dc0-\u1dff\u20d0-\u20f0\ufe20-\ufe2f]+/g;

/**
 * The readable part of an address: lower-case ASCII words joined by hyphens, at most 60
 * characters, cut at a word; empty when the title has no such word (the address is then the id alone).
 *
 * @example
 * ```ts
 * portalSlug("Dark mode für Ärzte!"); // "dark-mode-fur-arzte"
 * ```
 */
export function portalSlug(title: string): string {
  const words = title
    .normalize("NFKD")
    .replace(DIACRITICS, "")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== "");
  let slug = "";
  for (const word of words) {
    const next = slug === "" ? word : `${slug}-${word}`;
    if (next.length > 60) return slug === "" ? word.slice(0, 60) : slug;
    slug = next;
  }
  return slug;
}

const ID = "[a-z]{2,4}_[0-9a-z]{26}";

/**
 * The screen of a path below `/p/<APP_KEY>` (`""`, `/requests/fr_…-dark-mode`, …); null for
 * anything else.
 *
 * @example
 * ```ts
 * parsePortalPath("/requests/fr_01j0000000000000000000000-dark-mode"); // { screen: "request", id: "fr_01j…", slug: "dark-mode" }
 * ```
 */
export function parsePortalPath(path: string): PortalRoute | null {
  const rest = path.replace(/\/+$/, "");
  if (rest === "") return { screen: "home" };
  const one = (pattern: string) => new RegExp(`^${pattern}$`).exec(rest);
  let m: RegExpExecArray | null;
  if (rest === "/roadmap") return { screen: "roadmap" };
  if ((m = one("/roadmap/([a-z0-9-]{1,64})")) !== null) return { screen: "roadmap", column: m[1] };
  if (rest === "/requests") return { screen: "requests" };
  // Any slug is read (and the server redirects a wrong one): only the id decides.
  if ((m = one(`/requests/(${ID})(?:-([^/]*))?`)) !== null) return { screen: "request", id: m[1]!, slug: m[2] ?? "" };
  if (rest === "/changelog") return { screen: "changelog" };
  if ((m = one(`/changelog/(${ID})(?:-([^/]*))?`)) !== null) return { screen: "release", id: m[1]!, slug: m[2] ?? "" };
  if (rest === "/feedback") return { screen: "feedback" };
  if ((m = one("/users/(u_[0-9A-Za-z_-]{1,64})")) !== null) return { screen: "profile", userId: m[1]! };
  return null;
}

/**
 * The path of a screen below `/p/<APP_KEY>`; give a request's or release's `title` for its slug.
 *
 * @example
 * ```ts
 * portalPath("app_demo", { screen: "request", id }, "Dark mode"); // "/p/app_demo/requests/fr_…-dark-mode"
 * ```
 */
export function portalPath(appKey: string, route: PortalRoute, title?: string): string {
  const base = `/p/${encodeURIComponent(appKey)}`;
  const withSlug = (id: string) => {
    const slug = title === undefined ? "" : portalSlug(title);
    return slug === "" ? id : `${id}-${slug}`;
  };
  switch (route.screen) {
    case "home":
      return base;
    case "roadmap":
      return route.column === undefined ? `${base}/roadmap` : `${base}/roadmap/${encodeURIComponent(route.column)}`;
    case "requests":
    case "changelog":
    case "feedback":
      return `${base}/${route.screen}`;
    case "request":
      return `${base}/requests/${withSlug(route.id)}`;
    case "release":
      return `${base}/changelog/${withSlug(route.id)}`;
    case "profile":
      return `${base}/users/${encodeURIComponent(route.userId)}`;
  }
}
