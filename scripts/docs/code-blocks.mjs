// The code-block check: every ts/tsx block of the Markdown is written into a scratch project
// inside node_modules (so `@tidings/*` resolves to the workspace packages, as an app's import
// would) and type-checked. A block marked ```ts skip-check is left out; keep those rare. A block
// marked ```ts context is not checked on its own but is put before every later block of its file:
// the imports and `declare const client: FeedbackClient;` a fragment assumes, usually inside an
// HTML comment so readers see only the fragment; an empty context block ends it.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { scanMarkdown } from "./markdown.mjs";

const LANGS = new Map([["ts", "ts"], ["typescript", "ts"], ["tsx", "tsx"]]);

/**
 * The checked blocks of a Markdown text: `{ lang: "ts" | "tsx", line, code }`.
 *
 * @example
 * ```js
 * checkedBlocks("```ts\nconst a: number = 1;\n```"); // [{ lang: "ts", line: 2, code: "const a: number = 1;" }]
 * ```
 */
export function checkedBlocks(text) {
  const checked = [];
  let context = "";
  for (const block of scanMarkdown(text).blocks) {
    if (!LANGS.has(block.lang) || /(^|\s)skip-check(\s|$)/.test(block.info)) continue;
    if (/(^|\s)context(\s|$)/.test(block.info)) {
      context = `${block.code}\n`;
      continue;
    }
    // The context's lines come first, so error lines are shifted back by their count.
    const contextLines = context === "" ? 0 : context.split("\n").length - 1;
    checked.push({ lang: LANGS.get(block.lang), line: block.line - contextLines, code: `${context}${block.code}` });
  }
  return checked;
}

const COMPILER_OPTIONS = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ["lib.es2023.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
  types: ["node"],
  jsx: ts.JsxEmit.ReactJSX,
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  skipLibCheck: true,
  noEmit: true,
  allowImportingTsExtensions: false,
};

/**
 * Type-checks the blocks of `files` under `root` and returns the errors as
 * `file:line:column: message`, mapped back to the Markdown. `scratch` is the folder the blocks are
 * written to (it is emptied first); `declarations` are `.d.ts` files added to the program.
 */
export function codeBlockErrors(root, files, scratch, declarations = []) {
  fs.rmSync(scratch, { recursive: true, force: true });
  fs.mkdirSync(scratch, { recursive: true });
  // ESM like the packages, so top-level await and `import.meta` work in a block.
  fs.writeFileSync(path.join(scratch, "package.json"), JSON.stringify({ type: "module", private: true }));
  const origins = new Map();
  let count = 0;
  for (const file of files) {
    for (const block of checkedBlocks(fs.readFileSync(path.join(root, file), "utf8"))) {
      const name = path.join(scratch, `${file.replace(/[^A-Za-z0-9]+/g, "_")}_L${block.line}.${block.lang}`);
      // `export {}` makes every block a module of its own, so their top-level names never clash.
      fs.writeFileSync(name, `${block.code}\nexport {};\n`);
      origins.set(path.resolve(name), { file, line: block.line });
      count += 1;
    }
  }
  const program = ts.createProgram([...origins.keys(), ...declarations], COMPILER_OPTIONS);
  const errors = ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
    if (diagnostic.file === undefined || diagnostic.start === undefined) return `TS${diagnostic.code}: ${message}`;
    const origin = origins.get(path.resolve(diagnostic.file.fileName));
    const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    if (origin === undefined) return `${diagnostic.file.fileName}:${line + 1}:${character + 1}: TS${diagnostic.code}: ${message}`;
    return `${origin.file}:${origin.line + line}:${character + 1}: TS${diagnostic.code}: ${message}`;
  });
  return { count, errors };
}
