// Inline Markdown (emphasis, code spans, links, autolinks, breaks) parsed the CommonMark way: one
// left-to-right scan with a delimiter stack and a bracket stack, then the emphasis pass. Every
// scan that looks ahead is bounded so that scans from different positions never overlap, which
// keeps the whole parse linear in the input: no regular expression here can backtrack.
import { decodeEntityAt, isEscapable, unescapeText } from "./entities.js";
import { safeHref, safeImageSrc } from "./safe-href.js";
import type { MarkdownInline } from "./types.js";

/** A link reference definition (`[label]: https://… "title"`), keyed by its normalized label. */
export interface LinkDefinition {
  href: string;
  title: string | null;
}

/** Wrappers nested deeper than this are flattened, so hostile input cannot exhaust a renderer's stack. */
export const MAX_INLINE_DEPTH = 16;
/** Longest link label CommonMark allows. */
const MAX_LABEL = 999;

const STAR = 42;
const UNDERSCORE = 95;
const TILDE = 126;

type NodeType = "text" | "code" | "break" | "strong" | "emphasis" | "strikethrough" | "link" | "image";

interface Node {
  type: NodeType;
  text: string;
  /** Plain text a following plain text may join (delimiter runs and brackets stay apart). */
  mergeable: boolean;
  href: string;
  title: string | null;
  first: Node | null;
  last: Node | null;
  prev: Node | null;
  next: Node | null;
}

interface Delimiter {
  node: Node;
  char: number;
  /** Characters of the run not yet used by emphasis. */
  count: number;
  /** Length of the run as written (the rule of 3 looks at it). */
  length: number;
  canOpen: boolean;
  canClose: boolean;
  prev: Delimiter | null;
  next: Delimiter | null;
}

interface Bracket {
  node: Node;
  image: boolean;
  /** Index just after the `[`. */
  start: number;
  /** Top of the delimiter stack when the bracket opened: the link's emphasis is processed above it. */
  delimiter: Delimiter | null;
  prev: Bracket | null;
  seq: number;
}

const SPECIAL = new Uint8Array(128);
for (const c of "\n\\`*_~[!]<&hHwW") SPECIAL[c.charCodeAt(0)] = 1;

function makeNode(type: NodeType, text = "", mergeable = false): Node {
  return { type, text, mergeable, href: "", title: null, first: null, last: null, prev: null, next: null };
}

/** Whitespace in the CommonMark sense (a line start or end counts as whitespace). */
function isSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13) || code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x202f || code === 0x205f || code === 0x3000;
}

/**
 * ASCII punctuation and the Unicode punctuation and symbol blocks that matter for flanking. Ranges,
 * not `\p{P}`: Hermes (React Native's engine) does not know Unicode property escapes.
 */
function isPunctuation(code: number): boolean {
  if (code < 128) return isEscapable(code);
  return (
    (code >= 0xa1 && code <= 0xbf) ||
    code === 0xd7 ||
    code === 0xf7 ||
    (code >= 0x2010 && code <= 0x2027) ||
    (code >= 0x2030 && code <= 0x205e) ||
    (code >= 0x20a0 && code <= 0x20cf) ||
    (code >= 0x2190 && code <= 0x2bff) ||
    (code >= 0x2e00 && code <= 0x2e7f) ||
    (code >= 0x3001 && code <= 0x303f) ||
    (code >= 0xfe10 && code <= 0xfe6f) ||
    (code >= 0xff01 && code <= 0xff0f) ||
    (code >= 0xff1a && code <= 0xff20) ||
    (code >= 0xff3b && code <= 0xff40) ||
    (code >= 0xff5b && code <= 0xff65)
  );
}

/** Ends a raw link destination: space, ASCII control characters. */
function isBreak(code: number): boolean {
  return code <= 32 || code === 127;
}

function startsWithCi(source: string, at: number, prefix: string): boolean {
  return source.slice(at, at + prefix.length).toLowerCase() === prefix;
}

/**
 * A link label as references are matched: trimmed, inner whitespace collapsed, case-folded.
 *
 * @example
 * ```ts
 * normalizeLabel("  Release   Notes "); // "release notes"
 * ```
 */
export function normalizeLabel(label: string): string {
  return label.trim().replace(/\s+/g, " ").toLowerCase();
}

/**
 * Parses the inline Markdown of one block (paragraph, heading, table cell) into tokens, resolving
 * reference links against `definitions`. Unsafe link targets come out as their text.
 *
 * @example
 * ```ts
 * parseInline("**fast** [docs](https://example.com)", new Map());
 * // [{ type: "strong", children: [{ type: "text", text: "fast" }] }, { type: "text", text: " " }, { type: "link", … }]
 * ```
 */
export function parseInline(source: string, definitions: ReadonlyMap<string, LinkDefinition> = new Map()): MarkdownInline[] {
  return new InlineParser(source, definitions).parse();
}

class InlineParser {
  private readonly n: number;
  private readonly root = makeNode("text");
  private delimiters: Delimiter | null = null;
  private brackets: Bracket | null = null;
  private seq = 0;
  /** Link openers with `seq` at or below this may no longer form a link (no link inside a link). */
  private inactiveUpTo = 0;
  private lastOpenBracketAt = -1;
  private backtickRuns: Map<number, { positions: number[]; next: number }> | null = null;
  private parens: { close: Int32Array; nextBreak: Int32Array; nextUnmatched: Int32Array } | null = null;

  constructor(
    private readonly s: string,
    private readonly definitions: ReadonlyMap<string, LinkDefinition>,
  ) {
    this.n = s.length;
  }

  parse(): MarkdownInline[] {
    const { s, n } = this;
    let p = 0;
    while (p < n) {
      const c = s.charCodeAt(p);
      if (c === 10) p = this.lineEnd(p);
      else if (c === 92) p = this.backslash(p);
      else if (c === 96) p = this.codeSpan(p);
      else if (c === STAR || c === UNDERSCORE || c === TILDE) p = this.delimiterRun(p, c);
      else if (c === 91) p = this.openBracket(p, false);
      else if (c === 33 && s.charCodeAt(p + 1) === 91) p = this.openBracket(p, true);
      else if (c === 93) p = this.closeBracket(p);
      else if (c === 60) p = this.autolink(p);
      else if (c === 38) p = this.entity(p);
      else if (c === 104 || c === 72 || c === 119 || c === 87) p = this.bareUrl(p);
      else p = this.plain(p);
    }
    this.processEmphasis(null);
    return toInlines(this.root.first);
  }

  // ---- node list (every delimiter and bracket node stays a direct child of the root) ----

  private append(node: Node): void {
    const root = this.root;
    node.prev = root.last;
    node.next = null;
    if (root.last === null) root.first = node;
    else root.last.next = node;
    root.last = node;
  }

  private remove(node: Node): void {
    const root = this.root;
    if (node.prev === null) root.first = node.next;
    else node.prev.next = node.next;
    if (node.next === null) root.last = node.prev;
    else node.next.prev = node.prev;
    node.prev = null;
    node.next = null;
  }

  private text(text: string): void {
    const last = this.root.last;
    if (last !== null && last.type === "text" && last.mergeable) last.text += text;
    else this.append(makeNode("text", text, true));
  }

  // ---- scanners ----

  /** Plain text up to the next character that may start something. */
  private plain(p: number): number {
    const { s, n } = this;
    let e = p + 1;
    while (e < n) {
      const c = s.charCodeAt(e);
      if (c < 128 && SPECIAL[c] === 1) break;
      e++;
    }
    this.text(s.slice(p, e));
    return e;
  }

  /** A line ending: a hard break after two spaces, else a soft break shown as a space. */
  private lineEnd(p: number): number {
    const last = this.root.last;
    let hard = false;
    if (last !== null && last.type === "text" && last.mergeable) {
      let e = last.text.length;
      while (e > 0 && last.text.charCodeAt(e - 1) === 32) e--;
      hard = last.text.length - e >= 2;
      last.text = last.text.slice(0, e);
    }
    if (hard) this.append(makeNode("break"));
    else this.text(" ");
    return this.skipIndent(p + 1);
  }

  private skipIndent(p: number): number {
    while (this.s.charCodeAt(p) === 32 || this.s.charCodeAt(p) === 9) p++;
    return p;
  }

  private backslash(p: number): number {
    const next = this.s.charCodeAt(p + 1);
    if (next === 10) {
      this.append(makeNode("break"));
      return this.skipIndent(p + 2);
    }
    if (isEscapable(next)) {
      this.text(this.s[p + 1] ?? "");
      return p + 2;
    }
    this.text("\\");
    return p + 1;
  }

  /** A code span closes at the next backtick run of exactly the same length, or the run is text. */
  private codeSpan(p: number): number {
    const { s } = this;
    let e = p;
    while (s.charCodeAt(e) === 96) e++;
    const close = this.nextBacktickRun(e - p, e);
    if (close < 0) {
      this.text(s.slice(p, e));
      return e;
    }
    let content = s.slice(e, close).replace(/\n/g, " ");
    if (content.length >= 2 && content.startsWith(" ") && content.endsWith(" ") && /[^ ]/.test(content)) content = content.slice(1, -1);
    this.append(makeNode("code", content));
    return close + (e - p);
  }

  /** Start of the first backtick run of `length` at or after `from`, or -1 (runs are indexed once; the search only moves forward). */
  private nextBacktickRun(length: number, from: number): number {
    if (this.backtickRuns === null) {
      const runs = new Map<number, { positions: number[]; next: number }>();
      const { s, n } = this;
      let i = s.indexOf("`");
      while (i >= 0 && i < n) {
        let e = i;
        while (s.charCodeAt(e) === 96) e++;
        const entry = runs.get(e - i) ?? { positions: [], next: 0 };
        entry.positions.push(i);
        runs.set(e - i, entry);
        i = s.indexOf("`", e);
      }
      this.backtickRuns = runs;
    }
    const entry = this.backtickRuns.get(length);
    if (entry === undefined) return -1;
    while (entry.next < entry.positions.length && (entry.positions[entry.next] ?? 0) < from) entry.next++;
    return entry.positions[entry.next] ?? -1;
  }

  private delimiterRun(p: number, char: number): number {
    const { s, n } = this;
    let e = p;
    while (s.charCodeAt(e) === char) e++;
    const count = e - p;
    if (char === TILDE && count > 2) {
      this.text(s.slice(p, e));
      return e;
    }
    const before = p === 0 ? 10 : s.charCodeAt(p - 1);
    const after = e >= n ? 10 : s.charCodeAt(e);
    const left = !isSpace(after) && (!isPunctuation(after) || isSpace(before) || isPunctuation(before));
    const right = !isSpace(before) && (!isPunctuation(before) || isSpace(after) || isPunctuation(after));
    const canOpen = char === UNDERSCORE ? left && (!right || isPunctuation(before)) : left;
    const canClose = char === UNDERSCORE ? right && (!left || isPunctuation(after)) : right;
    const node = makeNode("text", s.slice(p, e));
    this.append(node);
    if (canOpen || canClose) {
      const delimiter: Delimiter = { node, char, count, length: count, canOpen, canClose, prev: this.delimiters, next: null };
      if (this.delimiters !== null) this.delimiters.next = delimiter;
      this.delimiters = delimiter;
    }
    return e;
  }

  private openBracket(p: number, image: boolean): number {
    const start = p + (image ? 2 : 1);
    const node = makeNode("text", image ? "![" : "[");
    this.append(node);
    this.lastOpenBracketAt = start - 1;
    this.brackets = { node, image, start, delimiter: this.delimiters, prev: this.brackets, seq: ++this.seq };
    return start;
  }

  private closeBracket(p: number): number {
    const opener = this.brackets;
    if (opener === null) {
      this.text("]");
      return p + 1;
    }
    this.brackets = opener.prev;
    const active = opener.image || opener.seq > this.inactiveUpTo;
    const target = active ? (this.inlineTarget(p + 1) ?? this.referenceTarget(opener, p)) : null;
    if (target === null) {
      this.text("]");
      return p + 1;
    }
    this.processEmphasis(opener.delimiter);
    const node = makeNode(opener.image ? "image" : "link");
    node.href = target.href;
    node.title = target.title;
    const from = opener.node.next;
    const to = this.root.last;
    if (from !== null && to !== null) {
      from.prev = null;
      to.next = null;
      opener.node.next = null;
      this.root.last = opener.node;
      node.first = from;
      node.last = to;
    }
    this.remove(opener.node);
    this.append(node);
    if (!opener.image) this.inactiveUpTo = opener.seq;
    return target.end;
  }

  /** `(destination "title")` after `]`. */
  private inlineTarget(q: number): { href: string; title: string | null; end: number } | null {
    const { s } = this;
    if (s.charCodeAt(q) !== 40) return null;
    let i = this.skipSpace(q + 1);
    let dest = "";
    if (s.charCodeAt(i) === 60) {
      const pointy = this.pointyDestination(i);
      if (pointy === null) return null;
      dest = pointy.dest;
      i = pointy.end;
    } else if (s.charCodeAt(i) !== 41) {
      const raw = i === q + 1 ? this.rawDestinationAfterParen(q) : this.rawDestination(i);
      if (raw === null) return null;
      dest = raw.dest;
      i = raw.end;
    }
    const afterDest = i;
    i = this.skipSpace(i);
    let title: string | null = null;
    const c = s.charCodeAt(i);
    if (i > afterDest && (c === 34 || c === 39 || c === 40)) {
      const scanned = this.linkTitle(i);
      if (scanned === null) return null;
      title = scanned.title;
      i = this.skipSpace(scanned.end);
    }
    if (s.charCodeAt(i) !== 41) return null;
    return { href: unescapeText(dest), title, end: i + 1 };
  }

  /** Spaces and tabs with at most one line ending among them. */
  private skipSpace(p: number): number {
    p = this.skipIndent(p);
    if (this.s.charCodeAt(p) === 10) p = this.skipIndent(p + 1);
    return p;
  }

  private pointyDestination(i: number): { dest: string; end: number } | null {
    const { s, n } = this;
    for (let j = i + 1; j < n; j++) {
      const c = s.charCodeAt(j);
      if (c === 62) return { dest: s.slice(i + 1, j), end: j + 1 };
      if (c === 60 || c === 10) return null;
      if (c === 92 && isEscapable(s.charCodeAt(j + 1))) j++;
    }
    return null;
  }

  /**
   * A raw destination right after the link's `(` at `q`, in constant time from an index of the
   * text's balanced parentheses: it ends at the `)` matching `q`, else at the next space when no
   * parenthesis in between stays open.
   */
  private rawDestinationAfterParen(q: number): { dest: string; end: number } | null {
    const { close, nextBreak, nextUnmatched } = this.parenIndex();
    const match = close[q] ?? -1;
    if (match >= 0) return { dest: this.s.slice(q + 1, match), end: match };
    const end = nextBreak[q + 1] ?? this.n;
    if ((nextUnmatched[q + 1] ?? this.n) < end) return null;
    return { dest: this.s.slice(q + 1, end), end };
  }

  /** A raw destination after spaces: it cannot extend past the next space, so such scans never overlap. */
  private rawDestination(i: number): { dest: string; end: number } | null {
    const { s, n } = this;
    const { close } = this.parenIndex();
    let j = i;
    while (j < n) {
      const c = s.charCodeAt(j);
      if (isBreak(c) || c === 41) break;
      if (c === 92 && isEscapable(s.charCodeAt(j + 1))) j += 2;
      else if (c === 40) {
        const match = close[j] ?? -1;
        if (match < 0) return null;
        j = match + 1;
      } else j++;
    }
    return j === i ? null : { dest: s.slice(i, j), end: j };
  }

  /** Balanced parentheses between spaces, computed once per text. */
  private parenIndex(): { close: Int32Array; nextBreak: Int32Array; nextUnmatched: Int32Array } {
    if (this.parens !== null) return this.parens;
    const { s, n } = this;
    const close = new Int32Array(n + 1).fill(-1);
    const open = new Uint8Array(n + 1);
    const stack: number[] = [];
    for (let j = 0; j < n; j++) {
      const c = s.charCodeAt(j);
      if (isBreak(c)) stack.length = 0;
      else if (c === 92 && isEscapable(s.charCodeAt(j + 1))) j++;
      else if (c === 40) {
        open[j] = 1;
        stack.push(j);
      } else if (c === 41 && stack.length > 0) close[stack.pop() ?? 0] = j;
    }
    const nextBreak = new Int32Array(n + 1);
    const nextUnmatched = new Int32Array(n + 1);
    nextBreak[n] = n;
    nextUnmatched[n] = n;
    for (let j = n - 1; j >= 0; j--) {
      nextBreak[j] = isBreak(s.charCodeAt(j)) ? j : (nextBreak[j + 1] ?? n);
      nextUnmatched[j] = open[j] === 1 && close[j] === -1 ? j : (nextUnmatched[j + 1] ?? n);
    }
    this.parens = { close, nextBreak, nextUnmatched };
    return this.parens;
  }

  /** A title in `"…"`, `'…'` or `(…)`: the scan stops at the next quote of its kind. */
  private linkTitle(i: number): { title: string; end: number } | null {
    const { s, n } = this;
    const open = s.charCodeAt(i);
    const closeChar = open === 40 ? 41 : open;
    for (let j = i + 1; j < n; j++) {
      const c = s.charCodeAt(j);
      if (c === 92 && isEscapable(s.charCodeAt(j + 1))) j++;
      else if (c === closeChar) return { title: unescapeText(s.slice(i + 1, j)), end: j + 1 };
      else if (open === 40 && c === 40) return null;
    }
    return null;
  }

  /** `[text][label]`, `[text][]` or `[text]` against the definitions. */
  private referenceTarget(opener: Bracket, p: number): { href: string; title: string | null; end: number } | null {
    if (this.definitions.size === 0) return null;
    const { s } = this;
    let end = p + 1;
    if (s.charCodeAt(p + 1) === 91) {
      const scanned = this.linkLabel(p + 2);
      if (scanned !== null) {
        end = scanned.end;
        if (scanned.label.trim() !== "") {
          const full = this.definitions.get(normalizeLabel(scanned.label));
          return full === undefined ? null : { ...full, end };
        }
      }
    }
    // The link text itself is the label, unless it holds a `[` or is too long for one.
    if (this.lastOpenBracketAt >= opener.start || p - opener.start > MAX_LABEL) return null;
    const label = s.slice(opener.start, p);
    if (label.trim() === "") return null;
    const found = this.definitions.get(normalizeLabel(label));
    return found === undefined ? null : { ...found, end };
  }

  private linkLabel(i: number): { label: string; end: number } | null {
    const { s, n } = this;
    for (let j = i; j < n && j - i <= MAX_LABEL; j++) {
      const c = s.charCodeAt(j);
      if (c === 92 && isEscapable(s.charCodeAt(j + 1))) j++;
      else if (c === 91) return null;
      else if (c === 93) return { label: s.slice(i, j), end: j + 1 };
    }
    return null;
  }

  /** `<https://…>` or `<name@example.com>`; anything else after `<` is text (raw HTML is never markup here). */
  private autolink(p: number): number {
    const { s, n } = this;
    let j = p + 1;
    if (/[A-Za-z]/.test(s[j] ?? "")) {
      j++;
      while (j < n && j - p <= 32 && /[A-Za-z0-9+.-]/.test(s[j] ?? "")) j++;
      if (s.charCodeAt(j) === 58 && j - p >= 3) {
        for (j++; j < n; j++) {
          const c = s.charCodeAt(j);
          if (c === 62) return this.addAutolink(s.slice(p + 1, j), s.slice(p + 1, j), j + 1);
          if (c <= 32 || c === 60 || c === 127) break;
        }
      }
    }
    j = p + 1;
    while (j < n && /[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]/.test(s[j] ?? "")) j++;
    if (j > p + 1 && s.charCodeAt(j) === 64) {
      const domain = ++j;
      while (j < n && /[A-Za-z0-9.-]/.test(s[j] ?? "")) j++;
      if (j > domain && s.charCodeAt(j) === 62) return this.addAutolink(s.slice(p + 1, j), `mailto:${s.slice(p + 1, j)}`, j + 1);
    }
    this.text("<");
    return p + 1;
  }

  private addAutolink(text: string, href: string, end: number): number {
    const node = makeNode("link");
    node.href = href;
    const child = makeNode("text", text, true);
    node.first = child;
    node.last = child;
    this.append(node);
    return end;
  }

  /** GFM's bare links: `https://…`, `http://…` and `www.…` after a space or an opening mark. */
  private bareUrl(p: number): number {
    const { s, n } = this;
    const before = p === 0 ? 32 : s.charCodeAt(p - 1);
    const boundary = isSpace(before) || before === STAR || before === UNDERSCORE || before === TILDE || before === 40;
    if (!boundary) return this.plain(p);
    const prefix = startsWithCi(s, p, "https://") ? 8 : startsWithCi(s, p, "http://") ? 7 : startsWithCi(s, p, "www.") ? 4 : 0;
    const first = s.charCodeAt(p + prefix);
    if (prefix === 0 || !(first > 127 ? !isSpace(first) && !isPunctuation(first) : /[A-Za-z0-9_-]/.test(s[p + prefix] ?? ""))) return this.plain(p);
    let j = p + prefix;
    let opened = 0;
    let closed = 0;
    while (j < n) {
      const c = s.charCodeAt(j);
      if (isSpace(c) || c < 32 || c === 60) break;
      if (c === 40) opened++;
      else if (c === 41) closed++;
      j++;
    }
    // Trailing punctuation ends the sentence, not the link; so does a `)` nobody opened.
    while (j > p + prefix) {
      const c = s[j - 1] ?? "";
      if ("?!.,:*_~'\"".includes(c)) j--;
      else if (c === ")" && closed > opened) {
        closed--;
        j--;
      } else break;
    }
    if (j === p + prefix) return this.plain(p);
    const text = s.slice(p, j);
    return this.addAutolink(text, prefix === 4 ? `http://${text}` : text, j);
  }

  private entity(p: number): number {
    const decoded = decodeEntityAt(this.s, p);
    if (decoded === null) {
      this.text("&");
      return p + 1;
    }
    this.text(decoded.text);
    return decoded.end;
  }

  // ---- emphasis ----

  private removeDelimiter(delimiter: Delimiter): void {
    if (delimiter.prev !== null) delimiter.prev.next = delimiter.next;
    if (delimiter.next !== null) delimiter.next.prev = delimiter.prev;
    else this.delimiters = delimiter.prev;
    delimiter.prev = null;
    delimiter.next = null;
  }

  /**
   * CommonMark's "process emphasis" above `bottom`: each closer looks back for an opener of its
   * kind, and a failed search records how far it went, so no stretch is searched twice.
   */
  private processEmphasis(bottom: Delimiter | null): void {
    let closer = this.delimiters;
    if (closer === bottom) return;
    while (closer !== null && closer.prev !== bottom) closer = closer.prev;
    const openersBottom = new Map<string, Delimiter | null>();
    while (closer !== null) {
      if (!closer.canClose) {
        closer = closer.next;
        continue;
      }
      const key = `${closer.char}:${closer.canOpen ? 1 : 0}:${closer.char === TILDE ? closer.count : closer.length % 3}`;
      const floor = openersBottom.has(key) ? (openersBottom.get(key) ?? null) : bottom;
      let opener = closer.prev;
      while (opener !== null && opener !== bottom && opener !== floor) {
        if (opener.char === closer.char && opener.canOpen && this.matches(opener, closer)) break;
        opener = opener.prev;
      }
      if (opener === null || opener === bottom || opener === floor) {
        openersBottom.set(key, closer.prev);
        const next = closer.next;
        if (!closer.canOpen) this.removeDelimiter(closer);
        closer = next;
        continue;
      }
      const use = closer.char === TILDE ? closer.count : opener.count >= 2 && closer.count >= 2 ? 2 : 1;
      const type: NodeType = closer.char === TILDE ? "strikethrough" : use === 2 ? "strong" : "emphasis";
      opener.count -= use;
      closer.count -= use;
      opener.node.text = opener.node.text.slice(0, opener.count);
      closer.node.text = closer.node.text.slice(0, closer.count);
      this.wrapBetween(opener.node, closer.node, type);
      for (let d = closer.prev; d !== null && d !== opener; ) {
        const prev = d.prev;
        this.removeDelimiter(d);
        d = prev;
      }
      if (opener.count === 0) {
        this.remove(opener.node);
        this.removeDelimiter(opener);
      }
      if (closer.count === 0) {
        const next = closer.next;
        this.remove(closer.node);
        this.removeDelimiter(closer);
        closer = next;
      }
    }
    while (this.delimiters !== null && this.delimiters !== bottom) this.removeDelimiter(this.delimiters);
  }

  private matches(opener: Delimiter, closer: Delimiter): boolean {
    if (closer.char === TILDE) return opener.count === closer.count;
    // The rule of 3: `*foo**bar*` is not `*foo*` + `*bar*`.
    if ((opener.canClose || closer.canOpen) && (opener.length + closer.length) % 3 === 0) return opener.length % 3 === 0 && closer.length % 3 === 0;
    return true;
  }

  private wrapBetween(open: Node, close: Node, type: NodeType): void {
    const wrapper = makeNode(type);
    const from = open.next;
    const to = close.prev;
    if (from !== null && to !== null && from !== close) {
      from.prev = null;
      to.next = null;
      wrapper.first = from;
      wrapper.last = to;
    }
    open.next = wrapper;
    wrapper.prev = open;
    wrapper.next = close;
    close.prev = wrapper;
  }
}

function pushText(out: MarkdownInline[], text: string): void {
  if (text === "") return;
  const last = out[out.length - 1];
  if (last !== undefined && last.type === "text") last.text += text;
  else out.push({ type: "text", text });
}

/** The text of a subtree, as an image's alt text. */
function plainText(first: Node | null): string {
  let text = "";
  const stack: (Node | null)[] = [first];
  while (stack.length > 0) {
    const node = stack.pop() ?? null;
    if (node === null) continue;
    stack.push(node.next);
    if (node.type === "text" || node.type === "code") text += node.text;
    else if (node.type === "break") text += " ";
    else stack.push(node.first);
  }
  return text;
}

/** The node tree as tokens, without recursion: unsafe links and deep wrappers are flattened. */
function toInlines(first: Node | null): MarkdownInline[] {
  const result: MarkdownInline[] = [];
  const stack: { node: Node | null; out: MarkdownInline[]; depth: number; inLink: boolean }[] = [{ node: first, out: result, depth: 0, inLink: false }];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    const node = frame.node;
    if (node === null) {
      stack.pop();
      continue;
    }
    frame.node = node.next;
    const flatten = () => stack.push({ node: node.first, out: frame.out, depth: frame.depth, inLink: frame.inLink });
    switch (node.type) {
      case "text":
        pushText(frame.out, node.text);
        break;
      case "code":
        frame.out.push({ type: "code", text: node.text });
        break;
      case "break":
        frame.out.push({ type: "break" });
        break;
      case "image": {
        const alt = plainText(node.first);
        const src = frame.inLink ? null : safeImageSrc(node.href);
        if (src === null) pushText(frame.out, alt);
        else frame.out.push({ type: "image", src, alt, title: node.title });
        break;
      }
      case "link": {
        const href = frame.inLink || frame.depth >= MAX_INLINE_DEPTH ? null : safeHref(node.href);
        if (href === null) flatten();
        else {
          const children: MarkdownInline[] = [];
          frame.out.push({ type: "link", href, title: node.title, children });
          stack.push({ node: node.first, out: children, depth: frame.depth + 1, inLink: true });
        }
        break;
      }
      default: {
        if (node.first === null) break;
        if (frame.depth >= MAX_INLINE_DEPTH) flatten();
        else {
          const children: MarkdownInline[] = [];
          frame.out.push({ type: node.type, children });
          stack.push({ node: node.first, out: children, depth: frame.depth + 1, inLink: frame.inLink });
        }
      }
    }
  }
  return result;
}
