import fc from "fast-check";

/** Pieces that break naive string handling: astral characters, clusters, bidi, surrogate halves. */
const TRICKY = [
  "🦄",
  "👩‍💻",
  "👨‍👩‍👧‍👦",
  "🏳️‍🌈",
  "🇫🇷",
  "👍🏽",
  "e\u0301",
  "a\u0301\u0302\u0303\u0304",
  "\u1100\u1161\u11a8",
  "क्षि",
  "\u200d",
  "\u200c",
  "\u200b",
  "\u200e",
  "\u200f",
  "\u202e",
  "\u2066",
  "\u061c",
  "\ufeff",
  "\uD800",
  "\uDC00",
  "\uDBFF",
  "\u0000",
  "\u001f",
  "\u0085",
  ".",
  "..",
  " ",
  "/",
  "\\",
  '"',
  "%",
  "'",
  "*",
  ".txt",
  ".PNG",
  ".tar.gz",
  ".exe",
];

/**
 * Strings built from the pieces above, printable and arbitrary Unicode graphemes, and long runs
 * of any of them, so length caps are crossed in the middle of every kind of cluster.
 */
export const hostileText = (maxPieces = 40): fc.Arbitrary<string> =>
  fc
    .array(
      fc.oneof(
        fc.constantFrom(...TRICKY),
        fc.string({ unit: "grapheme", maxLength: 8 }),
        fc.string({ unit: "binary", maxLength: 8 }),
        fc.tuple(fc.constantFrom(...TRICKY, "a", "é", "x"), fc.integer({ min: 20, max: 160 })).map(([piece, n]) => piece.repeat(n)),
      ),
      { maxLength: maxPieces },
    )
    .map((pieces) => pieces.join(""));

/** True when `text` has no lone surrogate, so it survives a round trip through UTF-8. */
export function isWellFormed(text: string): boolean {
  return Buffer.from(text, "utf8").toString("utf8") === text;
}

/** The offsets at which grapheme clusters of `text` start, and its length. */
export function graphemeBoundaries(text: string): Set<number> {
  const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
  const boundaries = new Set([text.length]);
  for (const { index } of segmenter.segment(text)) boundaries.add(index);
  return boundaries;
}
