import { dropLoneSurrogates, truncateText } from "@tidings/protocol";

/** The last extension of a file name, lower-cased; "" when it has none (or only a leading dot). */
export function extensionOf(filename: string): string {
  const dot = filename.lastIndexOf(".");
  return dot <= 0 ? "" : filename.slice(dot + 1).toLowerCase();
}

/** The longest file name stored, in UTF-16 code units (so 200 letters, or 100 astral emoji). */
export const MAX_FILENAME_LENGTH = 200;
/** A longer tail after the last dot is not kept as an extension when a name is shortened. */
const MAX_EXTENSION_LENGTH = 20;

/**
 * `name` cut to {@link MAX_FILENAME_LENGTH} on grapheme boundaries, keeping its extension (as
 * written) when it has a short one and the stem keeps at least one character.
 */
function shortenFilename(name: string): string {
  if (name.length <= MAX_FILENAME_LENGTH) return name;
  const dot = name.lastIndexOf(".");
  const extension = dot > 0 ? name.slice(dot) : "";
  if (extension.length > 1 && extension.length <= MAX_EXTENSION_LENGTH) {
    const stem = truncateText(name.slice(0, dot), MAX_FILENAME_LENGTH - extension.length);
    if (stem !== "") return stem + extension;
  }
  return truncateText(name, MAX_FILENAME_LENGTH);
}

/**
 * A file name safe to store and to put in `Content-Disposition`: the last path segment only,
 * without lone surrogates, control, bidi-override and reserved characters, at most
 * {@link MAX_FILENAME_LENGTH} UTF-16 units, cut between grapheme clusters (keeping the extension).
 * ZWJ and ZWNJ stay: emoji sequences and Persian or Indic names need them.
 *
 * @example
 * ```ts
 * sanitizeFilename("../../etc/passwd"); // "passwd"
 * sanitizeFilename("C:\\Users\\me\\shot.png"); // "shot.png"
 * sanitizeFilename(`a${"🦄".repeat(150)}.txt`); // "a" + 97 × "🦄" + ".txt"
 * ```
 */
export function sanitizeFilename(raw: string | undefined, fallback = "file"): string {
  const last = dropLoneSurrogates(raw ?? "").split(/[/\\]/).pop() ?? "";
  const name = last
    .normalize("NFC")
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f"*:<>?|]/g, "")
    .replace(/[\u061c\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g, "")
    .replace(/^[\s.]+/, "")
    .trimEnd();
  const short = shortenFilename(name).trimEnd();
  return short === "" ? fallback : short;
}
