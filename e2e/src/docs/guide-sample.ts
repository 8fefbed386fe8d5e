import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { build } from "esbuild";

const REPO = new URL("../../../", import.meta.url);

/**
 * The code of the block marked ```tsx sample=<name> in a guide, exactly as a reader copies it
 * (`languages`: the info strings' first words it may have, as a regular expression alternation).
 *
 * @example
 * ```ts
 * guideSample("docs/getting-started.md", "getting-started"); // "import { FeedbackClient } …"
 * ```
 */
export function guideSample(guide: string, name: string, languages = "ts|tsx"): string {
  return fencedBlock(guide, `(?:${languages})[^\\n]*\\bsample=${name}\\b[^\\n]*`);
}

/**
 * The code of the first block of a language (its info string's first word) in a guide.
 *
 * @example
 * ```ts
 * guideBlock("docs/identifying-users.md", "python"); // "import hashlib, …"
 * ```
 */
export function guideBlock(guide: string, lang: string): string {
  return fencedBlock(guide, `${lang}(?:[ \\t][^\\n]*)?`);
}

function fencedBlock(guide: string, info: string): string {
  const text = fs.readFileSync(new URL(guide, REPO), "utf8");
  const fence = new RegExp(`^\`\`\`${info}\\n([\\s\\S]*?)^\`\`\`\\s*$`, "m").exec(text);
  if (fence?.[1] === undefined) throw new Error(`${guide} has no \`\`\`${info} block`);
  return fence[1];
}

/** The sample with its `const NAME = "…";` lines set to `values`, the edit the guide asks of a reader. */
export function withConstants(code: string, values: Record<string, string>): string {
  let out = code;
  for (const [name, value] of Object.entries(values)) {
    const line = new RegExp(`^const ${name} = "[^"]*";`, "m");
    if (!line.test(out)) throw new Error(`the sample has no line const ${name} = "…";`);
    out = out.replace(line, `const ${name} = ${JSON.stringify(value)};`);
  }
  return out;
}

/** A page that serves the bundled sample from its own origin, as a host app's site would. */
export interface SamplePage {
  url: string;
  close(): Promise<void>;
}

/**
 * Bundles `code` (a guide's sample) with esbuild against the built workspace packages, and serves
 * it from a page holding `<div id="<mountId>">` on a loopback port of its own.
 */
export async function serveSample(code: string, folder: string, mountId: string): Promise<SamplePage> {
  fs.rmSync(folder, { recursive: true, force: true });
  fs.mkdirSync(folder, { recursive: true });
  const entry = path.join(folder, "sample.tsx");
  fs.writeFileSync(entry, code);
  const out = path.join(folder, "public");
  await build({
    entryPoints: [entry],
    bundle: true,
    format: "esm",
    jsx: "automatic",
    outdir: out,
    logLevel: "silent",
    define: { "process.env.NODE_ENV": '"production"' },
  });
  const hasCss = fs.existsSync(path.join(out, "sample.css"));
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>My app</title>${hasCss ? '<link rel="stylesheet" href="sample.css">' : ""}
<style>body{margin:0;padding:24px;background:#f6f7f9;font-family:system-ui,sans-serif}main{max-width:560px;margin:0 auto}</style></head>
<body><main><h1>My app</h1><div id="${mountId}"></div></main><script type="module" src="sample.js"></script></body></html>`;
  const types: Record<string, string> = { ".js": "text/javascript", ".css": "text/css" };
  const server = http.createServer((req, res) => {
    const name = new URL(req.url ?? "/", "http://x").pathname.slice(1);
    if (name === "" || name === "index.html") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html);
      return;
    }
    const file = path.join(out, path.basename(name));
    if (!fs.existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": types[path.extname(file)] ?? "application/octet-stream" }).end(fs.readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
