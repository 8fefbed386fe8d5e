import { dropLoneSurrogates } from "@tidings/protocol";

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** One grapheme cluster as printable ASCII: itself, without its accents (`é` → `e`), else `_`. */
function asciiCluster(cluster: string): string {
  const plain = cluster.normalize("NFKD").replace(/\p{M}/gu, "");
  return /^[\x20-\x7e]+$/.test(plain) && !/["\\%]/.test(plain) ? plain : "_";
}

/** RFC 5987 `value-chars`: `encodeURIComponent` leaves `'()*` and `!` alone; attr-char allows only `!`. */
function rfc5987(text: string): string {
  return encodeURIComponent(text).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * The `Content-Disposition` of a download: a plain-ASCII `filename` for old clients (one `_` per
 * character it cannot spell, so a ZWJ emoji is one `_`) and the exact name as RFC 5987
 * `filename*`. Never throws, whatever the stored name holds.
 *
 * @example
 * ```ts
 * attachmentDisposition("Café 🦄.txt"); // `attachment; filename="Cafe _.txt"; filename*=UTF-8''Caf%C3%A9%20%F0%9F%A6%84.txt`
 * ```
 */
export function attachmentDisposition(filename: string): string {
  const name = dropLoneSurrogates(filename);
  let ascii = "";
  for (const { segment } of graphemes.segment(name)) ascii += asciiCluster(segment);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${rfc5987(name)}`;
}
