// Block structure of Markdown, one line at a time: fenced and indented code, ATX and setext
// headings, thematic breaks, block quotes, bullet / ordered / task lists, GFM tables, link
// reference definitions and paragraphs. Inline text is kept raw for the inline parser, which runs
// once every reference definition is known. Raw HTML is not markup here: it stays visible text.
import { unescapeText } from "./entities.js";
import { normalizeLabel, type LinkDefinition } from "./inline.js";
import type { MarkdownAlign } from "./types.js";

/** Quotes and lists nested deeper than this are read as text, so depth costs stay bounded. */
export const MAX_BLOCK_DEPTH = 12;

/** A block whose inline content is still source text. */
export type RawBlock =
  | { type: "heading"; level: 1 | 2 | 3 | 4 | 5 | 6; raw: string }
  | { type: "paragraph"; raw: string }
  | { type: "code"; text: string; language: string | null }
  | { type: "quote"; children: RawBlock[] }
  | { type: "list"; ordered: boolean; start: number; items: { checked: boolean | null; children: RawBlock[] }[] }
  | { type: "rule" }
  | { type: "table"; align: MarkdownAlign[]; header: string[]; rows: string[][] };

interface ListMarker {
  ordered: boolean;
  /** `-`, `+`, `*`, or the ordered delimiter `.` / `)`. */
  marker: string;
  start: number;
  /** Column where the item's content starts; continuation lines are indented this far. */
  contentOffset: number;
  content: string;
  empty: boolean;
}

interface Fence {
  indent: number;
  char: number;
  length: number;
  info: string;
}

/**
 * The blocks of `source` and the link reference definitions found in it.
 *
 * @example
 * ```ts
 * parseBlocks("# Title\n\n- one\n- two").blocks; // [{ type: "heading", … }, { type: "list", … }]
 * ```
 */
export function parseBlocks(source: string): { blocks: RawBlock[]; definitions: Map<string, LinkDefinition> } {
  const lines = source.replace(/\r\n?/g, "\n").replaceAll("\u0000", "\ufffd").split("\n").map(expandIndent);
  const definitions = new Map<string, LinkDefinition>();
  return { blocks: parseLines(lines, 0, definitions), definitions };
}

function isSpaceOrTab(code: number): boolean {
  return code === 32 || code === 9;
}

/** Leading tabs as spaces to the next multiple of 4, so indentation compares in columns. */
function expandIndent(line: string): string {
  let column = 0;
  let i = 0;
  for (; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 32) column++;
    else if (c === 9) column += 4 - (column % 4);
    else break;
  }
  return column === i ? line : " ".repeat(column) + line.slice(i);
}

function indentOf(line: string): number {
  let i = 0;
  while (line.charCodeAt(i) === 32) i++;
  return i;
}

function isBlank(line: string): boolean {
  for (let i = 0; i < line.length; i++) if (!isSpaceOrTab(line.charCodeAt(i))) return false;
  return true;
}

function trimEndSpaces(text: string): string {
  let e = text.length;
  while (e > 0 && isSpaceOrTab(text.charCodeAt(e - 1))) e--;
  return text.slice(0, e);
}

function fenceOpen(line: string): Fence | null {
  const indent = indentOf(line);
  const char = line.charCodeAt(indent);
  if (indent > 3 || (char !== 96 && char !== 126)) return null;
  let e = indent;
  while (line.charCodeAt(e) === char) e++;
  const info = line.slice(e).trim();
  if (e - indent < 3 || (char === 96 && info.includes("`"))) return null;
  return { indent, char, length: e - indent, info };
}

function fenceCloses(line: string, fence: Fence): boolean {
  const indent = indentOf(line);
  if (indent > 3) return false;
  let e = indent;
  while (line.charCodeAt(e) === fence.char) e++;
  return e - indent >= fence.length && isBlank(line.slice(e));
}

function atxHeading(line: string): RawBlock | null {
  const indent = indentOf(line);
  if (indent > 3) return null;
  let e = indent;
  while (line.charCodeAt(e) === 35) e++;
  const level = e - indent;
  if (level < 1 || level > 6 || (e < line.length && !isSpaceOrTab(line.charCodeAt(e)))) return null;
  let raw = line.slice(e).trim();
  // An optional closing run of `#`, when a space sets it apart.
  let k = raw.length;
  while (k > 0 && raw.charCodeAt(k - 1) === 35) k--;
  if (k === 0) raw = "";
  else if (k < raw.length && isSpaceOrTab(raw.charCodeAt(k - 1))) raw = trimEndSpaces(raw.slice(0, k));
  return { type: "heading", level: level as 1 | 2 | 3 | 4 | 5 | 6, raw };
}

function isThematicBreak(line: string): boolean {
  const indent = indentOf(line);
  const char = line.charCodeAt(indent);
  if (indent > 3 || (char !== 42 && char !== 45 && char !== 95)) return false;
  let count = 0;
  for (let i = indent; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === char) count++;
    else if (!isSpaceOrTab(c)) return false;
  }
  return count >= 3;
}

function setextLevel(line: string): 1 | 2 | null {
  const indent = indentOf(line);
  const char = line.charCodeAt(indent);
  if (indent > 3 || (char !== 61 && char !== 45)) return null;
  let e = indent;
  while (line.charCodeAt(e) === char) e++;
  return isBlank(line.slice(e)) ? (char === 61 ? 1 : 2) : null;
}

function isQuote(line: string): boolean {
  const indent = indentOf(line);
  return indent <= 3 && line.charCodeAt(indent) === 62;
}

function stripQuote(line: string): string {
  const rest = line.slice(indentOf(line) + 1);
  return expandIndent(isSpaceOrTab(rest.charCodeAt(0)) ? rest.slice(1) : rest);
}

function listMarker(line: string): ListMarker | null {
  const indent = indentOf(line);
  if (indent > 3) return null;
  let e = indent;
  let ordered = false;
  let start = 1;
  const c = line.charCodeAt(e);
  if (c === 45 || c === 43 || c === 42) e++;
  else {
    while (e - indent < 9 && line.charCodeAt(e) >= 48 && line.charCodeAt(e) <= 57) e++;
    const delimiter = line.charCodeAt(e);
    if (e === indent || (delimiter !== 46 && delimiter !== 41)) return null;
    ordered = true;
    start = Number(line.slice(indent, e));
    e++;
  }
  const marker = line[e - 1] ?? "";
  if (e < line.length && !isSpaceOrTab(line.charCodeAt(e))) return null;
  let s = e;
  while (s < line.length && isSpaceOrTab(line.charCodeAt(s))) s++;
  const empty = s >= line.length;
  // Five or more spaces after the marker: the content is indented code one space in.
  const contentOffset = empty || s - e >= 5 ? e + 1 : s;
  return { ordered, marker, start, contentOffset, content: empty ? "" : line.slice(contentOffset), empty };
}

/** Lines that end a paragraph (a list only when it has content, an ordered one only from 1). */
function interruptsParagraph(line: string): boolean {
  if (fenceOpen(line) !== null || atxHeading(line) !== null || isThematicBreak(line) || isQuote(line)) return true;
  const marker = listMarker(line);
  return marker !== null && !marker.empty && (!marker.ordered || marker.start === 1);
}

/** Cells of a table row: outer pipes optional, `\|` a literal pipe. */
function splitRow(line: string): string[] {
  let row = line.trim();
  if (row.startsWith("|")) row = row.slice(1);
  if (row.endsWith("|") && !row.endsWith("\\|")) row = row.slice(0, -1);
  const cells: string[] = [];
  let cell = "";
  let from = 0;
  for (let i = 0; i < row.length; i++) {
    const c = row.charCodeAt(i);
    if (c === 92 && row.charCodeAt(i + 1) === 124) {
      cell += row.slice(from, i) + "|";
      from = i + 2;
      i++;
    } else if (c === 124) {
      cells.push((cell + row.slice(from, i)).trim());
      cell = "";
      from = i + 1;
    }
  }
  cells.push((cell + row.slice(from)).trim());
  return cells;
}

function delimiterRow(line: string): MarkdownAlign[] | null {
  if (indentOf(line) > 3 || !line.includes("|")) return null;
  const align: MarkdownAlign[] = [];
  for (const cell of splitRow(line)) {
    if (!/^:?-+:?$/.test(cell)) return null;
    const left = cell.startsWith(":");
    const right = cell.endsWith(":");
    align.push(left && right ? "center" : right ? "right" : left ? "left" : null);
  }
  return align;
}

function tableStart(line: string, next: string | undefined): { header: string[]; align: MarkdownAlign[] } | null {
  if (next === undefined || indentOf(line) > 3 || !line.includes("|")) return null;
  const align = delimiterRow(next);
  if (align === null) return null;
  const header = splitRow(line);
  return header.length === align.length ? { header, align } : null;
}

/** `[label]: destination "title"` on one line, or null. */
function linkDefinition(line: string): { label: string; definition: LinkDefinition } | null {
  let i = indentOf(line);
  if (i > 3 || line.charCodeAt(i) !== 91) return null;
  let j = i + 1;
  for (; j < line.length && line.charCodeAt(j) !== 93; j++) {
    const c = line.charCodeAt(j);
    if (c === 91 || j - i > 999) return null;
    if (c === 92) j++;
  }
  const label = line.slice(i + 1, j);
  if (j >= line.length || line.charCodeAt(j + 1) !== 58 || label.trim() === "") return null;
  i = j + 2;
  while (isSpaceOrTab(line.charCodeAt(i))) i++;
  let dest: string;
  if (line.charCodeAt(i) === 60) {
    const close = line.indexOf(">", i + 1);
    if (close < 0 || line.slice(i + 1, close).includes("<")) return null;
    dest = line.slice(i + 1, close);
    i = close + 1;
  } else {
    const start = i;
    let depth = 0;
    for (; i < line.length && line.charCodeAt(i) > 32; i++) {
      const c = line.charCodeAt(i);
      if (c === 92) i++;
      else if (c === 40) depth++;
      else if (c === 41 && --depth < 0) return null;
    }
    if (i === start || depth !== 0) return null;
    dest = line.slice(start, i);
  }
  const afterDest = i;
  while (isSpaceOrTab(line.charCodeAt(i))) i++;
  let title: string | null = null;
  const open = line.charCodeAt(i);
  if (i > afterDest && (open === 34 || open === 39 || open === 40)) {
    const rest = trimEndSpaces(line.slice(i + 1));
    const close = open === 40 ? 41 : open;
    if (rest.charCodeAt(rest.length - 1) !== close) return null;
    title = unescapeText(rest.slice(0, -1));
    i = line.length;
  }
  if (!isBlank(line.slice(i))) return null;
  return { label: normalizeLabel(label), definition: { href: unescapeText(dest), title } };
}

/** A paragraph's lines: leading reference definitions are recorded (the first of a label wins), the rest is text. */
function paragraph(lines: string[], definitions: Map<string, LinkDefinition>): string[] {
  let k = 0;
  for (; k < lines.length; k++) {
    const found = linkDefinition(lines[k] ?? "");
    if (found === null) break;
    if (!definitions.has(found.label)) definitions.set(found.label, found.definition);
  }
  return lines.slice(k);
}

function parseLines(lines: string[], depth: number, definitions: Map<string, LinkDefinition>): RawBlock[] {
  const out: RawBlock[] = [];
  const nest = depth < MAX_BLOCK_DEPTH;
  let para: string[] | null = null;
  const flush = () => {
    if (para === null) return;
    const text = paragraph(para, definitions);
    if (text.length > 0) out.push({ type: "paragraph", raw: trimEndSpaces(text.join("\n")) });
    para = null;
  };
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? "";
    if (isBlank(line)) {
      flush();
      i++;
      continue;
    }
    const indent = indentOf(line);
    if (indent >= 4) {
      if (para !== null) {
        para.push(line.slice(indent));
        i++;
        continue;
      }
      const code: string[] = [];
      for (; i < lines.length && (isBlank(lines[i] ?? "") || indentOf(lines[i] ?? "") >= 4); i++) code.push((lines[i] ?? "").slice(4));
      while (code.length > 0 && isBlank(code[code.length - 1] ?? "")) code.pop();
      out.push({ type: "code", text: code.join("\n"), language: null });
      continue;
    }
    const fence = fenceOpen(line);
    if (fence !== null) {
      flush();
      const body: string[] = [];
      for (i++; i < lines.length && !fenceCloses(lines[i] ?? "", fence); i++) {
        const l = lines[i] ?? "";
        body.push(l.slice(Math.min(fence.indent, indentOf(l))));
      }
      i++;
      const language = unescapeText(fence.info).split(/\s/)[0] ?? "";
      out.push({ type: "code", text: body.join("\n"), language: language === "" ? null : language });
      continue;
    }
    const heading = atxHeading(line);
    if (heading !== null) {
      flush();
      out.push(heading);
      i++;
      continue;
    }
    const setext = para === null ? null : setextLevel(line);
    if (para !== null && setext !== null) {
      const text = paragraph(para, definitions);
      para = null;
      if (text.length > 0) {
        out.push({ type: "heading", level: setext, raw: trimEndSpaces(text.join("\n")) });
        i++;
        continue;
      }
    }
    if (isThematicBreak(line)) {
      flush();
      out.push({ type: "rule" });
      i++;
      continue;
    }
    if (nest && isQuote(line)) {
      flush();
      const inner: string[] = [];
      for (; i < lines.length; i++) {
        const l = lines[i] ?? "";
        const previous = inner[inner.length - 1];
        if (isQuote(l)) inner.push(stripQuote(l));
        // A lazy continuation line of the quote's paragraph.
        else if (previous !== undefined && !isBlank(previous) && !isBlank(l) && !interruptsParagraph(l) && listMarker(l) === null) inner.push(l);
        else break;
      }
      out.push({ type: "quote", children: parseLines(inner, depth + 1, definitions) });
      continue;
    }
    const marker = nest ? listMarker(line) : null;
    if (marker !== null && (para === null || interruptsParagraph(line))) {
      flush();
      i = list(lines, i, marker, depth, definitions, out);
      continue;
    }
    const table = tableStart(line, lines[i + 1]);
    if (table !== null) {
      flush();
      const rows: string[][] = [];
      for (i += 2; i < lines.length; i++) {
        const l = lines[i] ?? "";
        if (isBlank(l) || interruptsParagraph(l) || listMarker(l) !== null) break;
        const cells = splitRow(l).slice(0, table.header.length);
        while (cells.length < table.header.length) cells.push("");
        rows.push(cells);
      }
      out.push({ type: "table", align: table.align, header: table.header, rows });
      continue;
    }
    (para ??= []).push(line.slice(indent));
    i++;
  }
  flush();
  return out;
}

/** Reads a list starting at line `i`; returns the index of the first line after it. */
function list(lines: string[], i: number, first: ListMarker, depth: number, definitions: Map<string, LinkDefinition>, out: RawBlock[]): number {
  const items: { checked: boolean | null; children: RawBlock[] }[] = [];
  while (i < lines.length) {
    const line = lines[i] ?? "";
    const marker = listMarker(line);
    if (marker === null || marker.ordered !== first.ordered || marker.marker !== first.marker || isThematicBreak(line)) break;
    const width = marker.contentOffset;
    const body = [marker.content];
    for (i++; i < lines.length; ) {
      const l = lines[i] ?? "";
      if (isBlank(l)) {
        // Blank lines stay in the item when indented content follows (an item starts with at most one blank line).
        let k = i;
        while (k < lines.length && isBlank(lines[k] ?? "")) k++;
        if (k >= lines.length || indentOf(lines[k] ?? "") < width || (marker.empty && body.length === 1)) break;
        for (; i < k; i++) body.push("");
        continue;
      }
      if (indentOf(l) >= width) body.push(l.slice(width));
      else if (!isBlank(body[body.length - 1] ?? "") && !interruptsParagraph(l) && listMarker(l) === null) body.push(l.slice(indentOf(l)));
      else break;
      i++;
    }
    const task = /^\[([ xX])\](?:[ \t]|$)/.exec(body[0] ?? "");
    if (task !== null) body[0] = (body[0] ?? "").slice(task[0].length);
    items.push({ checked: task === null ? null : task[1] !== " ", children: parseLines(body.map(expandIndent), depth + 1, definitions) });
    let k = i;
    while (k < lines.length && isBlank(lines[k] ?? "")) k++;
    if (k === i) continue;
    const next = k < lines.length ? listMarker(lines[k] ?? "") : null;
    if (next === null || next.ordered !== first.ordered || next.marker !== first.marker) break;
    i = k;
  }
  out.push({ type: "list", ordered: first.ordered, start: first.start, items });
  return i;
}
