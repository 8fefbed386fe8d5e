// The link check: every relative link in the Markdown points at a file that exists, and every
// #anchor at a heading (or an HTML id) of the file it names.
import fs from "node:fs";
import path from "node:path";
import { anchorsOf, linksOf } from "./markdown.mjs";

/**
 * The broken links of `files` (repository-relative Markdown paths under `root`), as
 * `file:line: message` strings; empty when every link resolves.
 *
 * @example
 * ```js
 * brokenLinks("/repo", ["README.md"]); // ["README.md:12: docs/nope.md does not exist"]
 * ```
 */
export function brokenLinks(root, files) {
  const anchorCache = new Map();
  const anchors = (file) => {
    if (!anchorCache.has(file)) anchorCache.set(file, anchorsOf(fs.readFileSync(path.join(root, file), "utf8")));
    return anchorCache.get(file);
  };
  const problems = [];
  for (const file of files) {
    for (const { line, target } of linksOf(fs.readFileSync(path.join(root, file), "utf8"))) {
      // Absolute URLs (https:, mailto:, …) and protocol-relative ones are not ours to check.
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//")) continue;
      const hash = target.indexOf("#");
      const rawPath = hash < 0 ? target : target.slice(0, hash);
      const anchor = hash < 0 ? null : decodeURIComponent(target.slice(hash + 1));
      let targetFile = file;
      if (rawPath !== "") {
        const decoded = decodeURIComponent(rawPath.split("?")[0]);
        targetFile = path.posix.normalize(decoded.startsWith("/") ? decoded.slice(1) : path.posix.join(path.posix.dirname(file), decoded));
        if (targetFile.startsWith("..") || !fs.existsSync(path.join(root, targetFile))) {
          problems.push(`${file}:${line}: ${target} → ${targetFile} does not exist`);
          continue;
        }
      }
      if (anchor === null || anchor === "") continue;
      if (!targetFile.endsWith(".md")) continue;
      if (!anchors(targetFile).has(anchor)) problems.push(`${file}:${line}: ${target} → no heading or id "${anchor}" in ${targetFile}`);
    }
  }
  return problems;
}
