import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { URL, fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { checkedBlocks, codeBlockErrors } from "./code-blocks.mjs";
import { staleExampleBlocks } from "./example-blocks.mjs";
import { brokenLinks } from "./links.mjs";
import { anchorsOf } from "./markdown.mjs";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "docs-check-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function tree(files) {
  const root = fs.mkdtempSync(path.join(tmp, "tree-"));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
  return root;
}

describe("the link check", () => {
  it("accepts links to files and to headings as GitHub slugs them", () => {
    const root = tree({
      "README.md": "See [the guide](docs/guide.md#identifying-users-x-user-hash), [again](docs/guide.md#setup-1), [top](#tidings) and [site](https://example.com/nope).\n\n# Tidings\n",
      "docs/guide.md": "# Identifying users: `X-User-Hash`\n\n## Setup\n\n## Setup\n\n```md\n[not a link](missing.md)\n```\n",
    });
    expect(brokenLinks(root, ["README.md", "docs/guide.md"])).toEqual([]);
  });

  it("reports a missing file and a missing anchor with their line", () => {
    const root = tree({
      "docs/a.md": "# A\n\n[gone](b.md)\n[typo](a.md#b)\n[self](#nope)\n![shot](img/none.png)\n",
    });
    expect(brokenLinks(root, ["docs/a.md"])).toEqual([
      "docs/a.md:3: b.md → docs/b.md does not exist",
      'docs/a.md:4: a.md#b → no heading or id "b" in docs/a.md',
      'docs/a.md:5: #nope → no heading or id "nope" in docs/a.md',
      "docs/a.md:6: img/none.png → docs/img/none.png does not exist",
    ]);
  });

  it("knows HTML ids and repeated headings", () => {
    expect([...anchorsOf('# Go\n\n## Go\n\n<a id="custom"></a>\n### C++ & *Rust*!\n')]).toEqual(["go", "go-1", "custom", "c--rust"]);
  });
});

describe("the code-block check", () => {
  it("skips blocks marked skip-check and puts a context block before the blocks after it", () => {
    const text = "```ts context\nconst n = 1;\n```\n\n```ts\nn.toFixed();\n```\n\n```ts skip-check\nnot checked\n```\n\n```sh\nnpm test\n```\n";
    expect(checkedBlocks(text)).toEqual([{ lang: "ts", line: 5, code: "const n = 1;\nn.toFixed();" }]);
  });

  it("reports a wrong call of a workspace package at its line in the Markdown", () => {
    const root = tree({
      "guide.md": [
        "# Guide",
        "",
        "```ts",
        'import { FeedbackClient } from "@tidings/client";',
        'const client = new FeedbackClient({ baseUrl: "https://feedback.example.com", appKey: "app_demo" });',
        "await client.submitFeedback(42);",
        "```",
        "",
      ].join("\n"),
    });
    const scratch = path.join(repo, "node_modules/.cache/docs-check-test");
    const { count, errors } = codeBlockErrors(root, ["guide.md"], scratch);
    fs.rmSync(scratch, { recursive: true, force: true });
    expect(count).toBe(1);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^guide\.md:6:\d+: TS2345: Argument of type 'number'/);
  });
});

describe("the example check", () => {
  it("accepts a block that is its file, and names the line of one that drifted or names no file", () => {
    const app = "export default function App() {\n  return null;\n}\n";
    const root = tree({
      "examples/app/App.tsx": app,
      "README.md": `# Example\n\n\`\`\`tsx file=examples/app/App.tsx\n${app}\`\`\`\n`,
      "docs/old.md": `Old\n\n\`\`\`tsx file=examples/app/App.tsx\n${app.replace("null", "undefined")}\`\`\`\n\n\`\`\`tsx file=examples/gone.tsx\nx\n\`\`\`\n`,
    });
    expect(staleExampleBlocks(root, ["README.md"])).toEqual([]);
    expect(staleExampleBlocks(root, ["docs/old.md"])).toEqual([
      "docs/old.md:4: the block differs from examples/app/App.tsx; copy the file into it",
      "docs/old.md:10: the block names examples/gone.tsx, which does not exist",
    ]);
  });
});
