/** The embedding origins an app allows, read from its stored JSON: https origins only. */
export function parseOrigins(json: string | null | undefined): string[] {
  try {
    const value: unknown = JSON.parse(json ?? "[]");
    return Array.isArray(value) ? value.filter((o): o is string => typeof o === "string" && /^https:\/\/[^\s;,'"]+$/.test(o)) : [];
  } catch {
    return [];
  }
}

/**
 * The page's policy: our own script and styles only, API calls to this origin, images from https
 * (release notes) and local previews. Framing: nobody, except the widget's `?embed=1` page, which
 * the app's `allowedEmbedOrigins` restrict when it lists any.
 */
export function pageCsp(embed: boolean, embedOrigins: string[]): string {
  const ancestors = !embed ? "'none'" : embedOrigins.length > 0 ? embedOrigins.join(" ") : "*";
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' https: data: blob:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${ancestors}`,
  ].join("; ");
}

/** The policy of the plain 404 and 503 pages: no script, inline styles only, never framed. */
export const NOT_FOUND_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
