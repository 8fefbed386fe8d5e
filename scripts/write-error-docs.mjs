// Rewrites the table of docs/errors.md from the error-code registry (run after adding a code:
// `npm run docs:errors`). packages/protocol/src/errors.test.ts fails when the two drift.
import fs from "node:fs";
import { URL } from "node:url";
import { ErrorCodes } from "../packages/protocol/dist/index.js";

const file = new URL("../docs/errors.md", import.meta.url);
const text = fs.readFileSync(file, "utf8");
const header = "| code | status | default message | meaning | how to fix |\n|---|---|---|---|---|\n";
const start = text.indexOf(header);
if (start < 0) throw new Error("docs/errors.md has no table header");
const rows = Object.entries(ErrorCodes)
  .map(([code, d]) => `| \`${code}\` | ${d.status} | ${d.message} | ${d.meaning} | ${d.fix} |`)
  .join("\n");
const afterTable = text.slice(start + header.length).replace(/^(\|.*\n?)*/, "");
fs.writeFileSync(file, `${text.slice(0, start)}${header}${rows}\n${afterTable}`);
