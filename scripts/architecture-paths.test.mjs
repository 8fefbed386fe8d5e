import fs from "node:fs";
import path from "node:path";
import { URL, fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));
const PAGE = "docs/architecture.md";
const SERVER_SRC = "packages/server/src";

/**
 * The repository paths a page names: every code span with a slash (a path from the root; a bare
 * `name/` may also be an area of the server), and every relative link (from the page's folder).
 */
function namedPaths(markdown, page) {
  const prose = markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "");
  const spans = [...prose.matchAll(/`([^`\n]+)`/g)]
    .map((m) => m[1])
    .filter((span) => span.includes("/") && !/\s|:\/\/|^[@/.]/.test(span))
    .map((span) => ({ text: `\`${span}\``, candidates: /^[\w.-]+\/$/.test(span) ? [span, `${SERVER_SRC}/${span}`] : [span] }));
  const links = [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1].split("#")[0])
    .filter((target) => target !== "" && !/^[a-z]+:/.test(target))
    .map((target) => ({ text: `(${target})`, candidates: [path.posix.join(path.posix.dirname(page), target)] }));
  return [...spans, ...links];
}

/** Whether `pattern` (a path from the root, `*` and `**` allowed) names at least one file or folder. */
function exists(pattern) {
  if (!pattern.includes("*")) return fs.existsSync(path.join(root, pattern));
  const segments = pattern.split("/");
  const base = segments.slice(0, segments.findIndex((s) => s.includes("*"))).join("/");
  const regex = new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*\*\//g, "(.*/)?").replace(/\*/g, "[^/]*")}$`);
  const walk = (dir) =>
    fs.readdirSync(path.join(root, dir), { withFileTypes: true }).some((entry) => {
      if (entry.name === "node_modules" || entry.name === "dist") return false;
      const rel = `${dir}/${entry.name}`;
      return regex.test(rel) || (entry.isDirectory() && walk(rel));
    });
  return fs.existsSync(path.join(root, base)) && walk(base);
}

describe(PAGE, () => {
  const named = namedPaths(fs.readFileSync(path.join(root, PAGE), "utf8"), PAGE);

  it("names only paths that exist (a moved module: update the page)", () => {
    const missing = named.filter(({ candidates }) => !candidates.some(exists)).map(({ text }) => text);
    expect(missing).toEqual([]);
  });

  it("is read for paths at all: code spans and links of every section", () => {
    expect(named.length).toBeGreaterThan(60);
    expect(named.map(({ text }) => text)).toEqual(
      expect.arrayContaining(["`packages/server/src/rate-limit/enforce.ts`", "`packages/react-core/src/hooks/`", "(client-sdk.md)", "`db/`"]),
    );
  });
});

describe("namedPaths", () => {
  it("takes code spans with a slash and relative links, not package names, routes, URLs or code blocks", () => {
    const page = [
      "See `packages/a/b.ts`, `db/`, `@tidings/client`, `/admin/`, `x.test.ts`, `npm run a b/c`,",
      "[guide](guide.md#anchor), [site](https://example.com/x) and [here](#top).",
      "```mermaid",
      "A[`not/a/path`]",
      "```",
    ].join("\n");
    expect(namedPaths(page, "docs/page.md")).toEqual([
      { text: "`packages/a/b.ts`", candidates: ["packages/a/b.ts"] },
      { text: "`db/`", candidates: ["db/", "packages/server/src/db/"] },
      { text: "(guide.md)", candidates: ["docs/guide.md"] },
    ]);
  });
});
