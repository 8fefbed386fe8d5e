// The example check: a code block marked ```tsx file=examples/expo-app/App.tsx must be that file,
// to the character, so the code a reader copies is the code the example apps build.
import fs from "node:fs";
import path from "node:path";
import { scanMarkdown } from "./markdown.mjs";

/**
 * Every block of `files` whose info names a `file=` that it does not equal (or that is missing),
 * as `file:line: message`.
 *
 * @example
 * ```js
 * staleExampleBlocks("/repo", ["packages/react-native/README.md"]); // [] when each block is its file
 * ```
 */
export function staleExampleBlocks(root, files) {
  const problems = [];
  for (const file of files) {
    for (const block of scanMarkdown(fs.readFileSync(path.join(root, file), "utf8")).blocks) {
      const named = /(?:^|\s)file=(\S+)/.exec(block.info)?.[1];
      if (named === undefined) continue;
      const target = path.join(root, named);
      if (!fs.existsSync(target)) problems.push(`${file}:${block.line}: the block names ${named}, which does not exist`);
      else if (fs.readFileSync(target, "utf8").replace(/\n$/, "") !== block.code.replace(/\n$/, "")) {
        problems.push(`${file}:${block.line}: the block differs from ${named}; copy the file into it`);
      }
    }
  }
  return problems;
}
