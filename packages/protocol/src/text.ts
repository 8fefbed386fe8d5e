// How user text is measured and cut, shared by the server, the dashboard and the SDKs so a
// length the UI accepts is a length the server accepts, and no cut leaves half a character.

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Created on first use: runtimes without `Intl.Segmenter` (Hermes) must still load this module. */
let graphemes: Intl.Segmenter | null | undefined;

function graphemeSegmenter(): Intl.Segmenter | null {
  if (graphemes === undefined) {
    graphemes = typeof Intl === "object" && typeof Intl.Segmenter === "function" ? new Intl.Segmenter(undefined, { granularity: "grapheme" }) : null;
  }
  return graphemes;
}

/**
 * The length of `text` as the wire schemas count it (`minLength` / `maxLength`): in code points,
 * so an emoji outside the Basic Multilingual Plane counts 1, not the 2 UTF-16 units of `.length`.
 *
 * @example
 * ```ts
 * textLength("a🦄"); // 2 ("a🦄".length is 3)
 * ```
 */
export function textLength(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++, count++) {
    const unit = text.charCodeAt(i);
    // A pair counts once; a lone half counts 1, as the schemas count it.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
  }
  return count;
}

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
 * than the budget (a base letter carrying hundreds of marks) is it cut, between code points;
 * where the runtime has no `Intl.Segmenter`, every cut is between code points. The unit is
 * UTF-16 because it bounds code points ({@link textLength}) and storage alike.
 *
 * @example
 * ```ts
 * truncateText("a🦄🦄", 4); // "a🦄", never "a🦄\uD83E"
 * truncateText("ok 👩‍💻", 6); // "ok " (the ZWJ sequence is 5 units and goes whole)
 * ```
 */
export function truncateText(text: string, maxUnits: number): string {
  if (text.length <= maxUnits) return text;
  const segmenter = graphemeSegmenter();
  if (segmenter !== null) {
    // Grapheme rules look one code point to the right of a boundary, so this prefix decides
    // every boundary up to maxUnits exactly as the whole text would.
    const prefix = text.slice(0, maxUnits + 2);
    let end = 0;
    for (const { index, segment } of segmenter.segment(prefix)) {
      if (index + segment.length > maxUnits) break;
      end = index + segment.length;
    }
    if (end > 0) return text.slice(0, end);
  }
  let out = "";
  for (const codePoint of text) {
    if (out.length + codePoint.length > maxUnits) break;
    out += codePoint;
  }
  return out;
}
