const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/**
 * `text` without lone surrogates (half of a pair whose other half is missing, as a JSON `\uD800`
 * can send): such text has no UTF-8 form, shows as U+FFFD and makes `encodeURIComponent` throw.
 *
 * @example
 * ```ts
 * dropLoneSurrogates("a\uD800b"); // "ab"
 * ```
 */
export function dropLoneSurrogates(text: string): string {
  return text.replace(LONE_SURROGATE, "");
}

/**
 * The longest start of `text` that fits in `maxUnits` UTF-16 code units and ends on a grapheme
 * cluster boundary, so an astral character, a letter with its combining marks, a flag or a ZWJ
 * emoji sequence is kept whole or dropped whole. Only when the first cluster alone is longer
 * than the budget (a base letter carrying hundreds of marks) is it cut, between code points.
 * The unit is UTF-16 because it bounds code points and storage alike.
 *
 * @example
 * ```ts
 * truncateText("a🦄🦄", 4); // "a🦄", never "a🦄\uD83E"
 * truncateText("ok 👩‍💻", 6); // "ok " (the ZWJ sequence is 5 units and goes whole)
 * ```
 */
export function truncateText(text: string, maxUnits: number): string {
  if (text.length <= maxUnits) return text;
  // Grapheme rules look one code point to the right of a boundary, so this prefix decides
  // every boundary up to maxUnits exactly as the whole text would.
  const prefix = text.slice(0, maxUnits + 2);
  let end = 0;
  for (const { index, segment } of graphemes.segment(prefix)) {
    if (index + segment.length > maxUnits) break;
    end = index + segment.length;
  }
  if (end > 0) return text.slice(0, end);
  let out = "";
  for (const codePoint of text) {
    if (out.length + codePoint.length > maxUnits) break;
    out += codePoint;
  }
  return out;
}
