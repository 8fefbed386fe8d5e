// `npm run docs:check`: type-checks every ts/tsx block of the READMEs and docs/*.md against the
// built workspace packages, checks that each block marked `file=<path>` is that file, and checks
// every relative link and #anchor of every Markdown file.
// Exits 1 with `file:line` for each problem.
import path from "node:path";
import process from "node:process";
import { URL, fileURLToPath } from "node:url";
import { codeBlockErrors } from "./docs/code-blocks.mjs";
import { staleExampleBlocks } from "./docs/example-blocks.mjs";
import { brokenLinks } from "./docs/links.mjs";
import { markdownFiles } from "./docs/markdown.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const files = markdownFiles(root);
// The generated API reference quotes the doc comments' examples, which are fragments by design.
const guides = files.filter((file) => !file.startsWith("docs/api/") && !file.startsWith("examples/"));

const links = brokenLinks(root, files);
const examples = staleExampleBlocks(root, guides);
const thirdParty = fileURLToPath(new URL("./docs/third-party.d.ts", import.meta.url));
const blocks = codeBlockErrors(root, guides, path.join(root, "node_modules/.cache/docs-check"), [thirdParty]);
for (const problem of [...blocks.errors, ...examples, ...links]) process.stderr.write(`${problem}\n`);
process.stdout.write(`docs:check: ${blocks.count} code blocks in ${guides.length} files, ${blocks.errors.length} type errors, ${examples.length} stale example copies; ${files.length} Markdown files, ${links.length} broken links\n`);
process.exitCode = blocks.errors.length + examples.length + links.length === 0 ? 0 : 1;
