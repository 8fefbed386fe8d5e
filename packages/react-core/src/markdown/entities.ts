// HTML character references and backslash escapes, as Markdown text may carry them. Only a short
// table of named references is known; any other `&name;` stays as it was written.

const NAMED: Record<string, string> = {
  amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0", copy: "©", reg: "®", trade: "™",
  hellip: "…", mdash: "—", ndash: "–", lsquo: "‘", rsquo: "’", ldquo: "“", rdquo: "”", laquo: "«",
  raquo: "»", bull: "•", middot: "·", times: "×", divide: "÷", deg: "°", plusmn: "±", euro: "€",
  pound: "£", yen: "¥", cent: "¢", sect: "§", para: "¶", larr: "←", rarr: "→", uarr: "↑", darr: "↓",
  check: "✓", hearts: "♥", star: "☆",
};

// Bounded lengths, so a match is checked in constant time at any position.
const REFERENCE = /&(?:#[xX]([0-9a-fA-F]{1,6})|#([0-9]{1,7})|([A-Za-z][A-Za-z0-9]{1,31}));/y;

/** True for the ASCII punctuation a backslash may escape. */
export function isEscapable(code: number): boolean {
  return (code >= 33 && code <= 47) || (code >= 58 && code <= 64) || (code >= 91 && code <= 96) || (code >= 123 && code <= 126);
}

/**
 * The character reference starting at `at` (`&amp;`, `&#35;`, `&#x1F600;`) and where it ends, or
 * null when there is none; invalid code points become U+FFFD.
 *
 * @example
 * ```ts
 * decodeEntityAt("a &amp; b", 2); // { text: "&", end: 7 }
 * ```
 */
export function decodeEntityAt(source: string, at: number): { text: string; end: number } | null {
  REFERENCE.lastIndex = at;
  const match = REFERENCE.exec(source);
  if (match === null) return null;
  const end = at + match[0].length;
  if (match[3] !== undefined) {
    const named = NAMED[match[3]];
    return named === undefined ? null : { text: named, end };
  }
  const code = match[1] !== undefined ? Number.parseInt(match[1], 16) : Number.parseInt(match[2] ?? "0", 10);
  const valid = code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff);
  return { text: valid ? String.fromCodePoint(code) : "\ufffd", end };
}

/**
 * Backslash escapes and character references resolved, as in a link destination or title.
 *
 * @example
 * ```ts
 * unescapeText("java&#x73;cript\\:x"); // "javascript:x"
 * ```
 */
export function unescapeText(source: string): string {
  if (!source.includes("\\") && !source.includes("&")) return source;
  let out = "";
  let i = 0;
  while (i < source.length) {
    const c = source.charCodeAt(i);
    if (c === 92 /* \ */ && i + 1 < source.length && isEscapable(source.charCodeAt(i + 1))) {
      out += source[i + 1];
      i += 2;
    } else if (c === 38 /* & */) {
      const entity = decodeEntityAt(source, i);
      out += entity === null ? "&" : entity.text;
      i = entity === null ? i + 1 : entity.end;
    } else {
      out += source[i];
      i += 1;
    }
  }
  return out;
}
