// Reads the Markdown the docs check covers: code fences with their line numbers, headings as
// GitHub slugs them, and every link target outside code.
import fs from "node:fs";
import path from "node:path";
import GithubSlugger from "github-slugger";

/** Folders never scanned: dependencies, builds, test output, and the workplace's own folders. */
const SKIP_DIRS = new Set(["node_modules", "dist", "data", "coverage", "artifacts", ".git", ".vitest"]);

/**
 * Every Markdown file under `root`, repository-relative with forward slashes, sorted.
 *
 * @example
 * ```js
 * markdownFiles("/repo"); // ["README.md", "docs/deploy.md", ...]
 * ```
 */
export function markdownFiles(root) {
  const out = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      if (entry.name.startsWith(".") && entry.isDirectory()) continue;
      const rel = dir === "" ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) walk(rel);
      } else if (entry.name.endsWith(".md")) out.push(rel);
    }
  };
  walk("");
  return out.sort();
}

const FENCE = /^(\s*)(`{3,}|~{3,})(.*)$/;

/**
 * Splits a Markdown text into fenced code blocks and the prose lines outside them.
 * `line` numbers are 1-based; a block's `line` is that of its first code line.
 */
export function scanMarkdown(text) {
  const lines = text.split(/\r?\n/);
  const blocks = [];
  const prose = [];
  let open = null;
  lines.forEach((raw, index) => {
    const lineNo = index + 1;
    if (open === null) {
      const match = FENCE.exec(raw);
      if (match && !(match[2][0] === "`" && match[3].includes("`"))) {
        const info = match[3].trim();
        open = { marker: match[2], indent: match[1].length, info, lang: info.split(/\s+/)[0]?.toLowerCase() ?? "", line: lineNo + 1, lines: [] };
        return;
      }
      prose.push({ line: lineNo, text: raw });
      return;
    }
    const close = /^(\s*)(`{3,}|~{3,})\s*$/.exec(raw);
    if (close && close[2][0] === open.marker[0] && close[2].length >= open.marker.length) {
      blocks.push({ lang: open.lang, info: open.info, line: open.line, code: open.lines.join("\n") });
      open = null;
      return;
    }
    // Fences inside list items are indented; the code is not.
    open.lines.push(raw.startsWith(" ".repeat(open.indent)) ? raw.slice(open.indent) : raw.trimStart());
  });
  return { blocks, prose };
}

/** A heading's text as GitHub renders it before slugging: markup gone, words kept. */
function headingText(source) {
  return source
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "")
    .replace(/`([^`]*)`/g, "$1")
    .replace(/(\*\*|__)(.+?)\1/g, "$2")
    .replace(/\*(.+?)\*/g, "$1")
    .replace(/(^|\W)_(.+?)_(?=\W|$)/g, "$1$2");
}

/**
 * The anchors a Markdown file offers: GitHub's slug of every heading (with `-1`, `-2` for
 * repeats) and every HTML `id`/`name` attribute.
 */
export function anchorsOf(text) {
  const slugger = new GithubSlugger();
  const anchors = new Set();
  for (const { text: line } of scanMarkdown(text).prose) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
    if (heading) anchors.add(slugger.slug(headingText(heading[1])));
    for (const match of line.matchAll(/<a\s[^>]*?(?:id|name)="([^"]+)"/g)) anchors.add(match[1]);
  }
  return anchors;
}

/**
 * Every link and image target in the prose of a Markdown file (inline code excluded), with its
 * line. Reference definitions (`[x]: target`) count too.
 */
export function linksOf(text) {
  const links = [];
  for (const { line, text: raw } of scanMarkdown(text).prose) {
    const prose = raw.replace(/(`+)[^`]*?\1/g, "");
    for (const match of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) links.push({ line, target: match[1] });
    const definition = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/.exec(prose);
    if (definition) links.push({ line, target: definition[1] });
    for (const match of prose.matchAll(/<(?:a|img)\s[^>]*?(?:href|src)="([^"]+)"/g)) links.push({ line, target: match[1] });
  }
  return links;
}
