/**
 * The link target if a reader may follow it — http(s) with a host, or mailto — else null. Every
 * other scheme (javascript:, data:, file:, intent:, app deep links) and every relative URL is
 * refused: a release note is read inside the host app, where only these leave it safely.
 *
 * @example
 * ```ts
 * safeHref("https://example.com/docs"); // "https://example.com/docs"
 * safeHref("javascript:alert(1)"); // null
 * ```
 */
export function safeHref(raw: string): string | null {
  const href = raw.trim();
  // Control characters never belong in a URL and some URL parsers drop them silently.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(href)) return null;
  if (/^https?:\/\/[^\s/?#\\]/i.test(href) || /^mailto:[^\s]/i.test(href)) return href.replace(/ /g, "%20");
  return null;
}

/**
 * The image source if it is https (the server's sanitiser keeps no other image), else null.
 *
 * @example
 * ```ts
 * safeImageSrc("http://example.com/a.png"); // null
 * ```
 */
export function safeImageSrc(raw: string): string | null {
  const src = safeHref(raw);
  return src !== null && /^https:/i.test(src) ? src : null;
}
