/**
 * Size budget of the SDK core. The core is what an app that calls the API pays: `FeedbackClient`
 * with its request path, errors, token store and signing, bundled from the package entry the way
 * an app's bundler tree-shakes it (esbuild, minified, ESM, platform neutral) and gzipped; it must
 * stay within 8 KB. The headless controllers (list, composer, config loader, pacing) are for UI
 * layers and are printed, with every module's share of the whole entry, for information.
 * Code the SDK loads with `import()` only where it is needed (the plain-JavaScript PBKDF2 for
 * runtimes without Web Crypto) is split off as an app bundler does, and printed apart: an app whose
 * runtime has Web Crypto never loads it.
 *
 * `@tidings/react` is printed too, without a budget (the issue sets none): its entry as an app's
 * bundler sees it (react, react-dom and `@tidings/client` external, since the app has them anyway),
 * its stylesheet, and the portal bundle the server serves (React and the SDK included).
 */
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import { build, type Metafile } from "esbuild";

const BUDGET_BYTES = 8 * 1024;
const src = fileURLToPath(new URL("../../packages/client/src/", import.meta.url));

interface Measured {
  minified: number;
  gzipped: number;
  /** Minified bytes each source module contributes. */
  modules: [string, number][];
  /** Minified and gzipped bytes of the chunks only `import()` reaches. */
  lazy: { minified: number; gzipped: number };
}

const ENTRY = "size-entry";

/** Bundles `contents` (an ESM module inside the client's src folder) as an app bundler would, splitting at `import()`. */
async function measure(contents: string): Promise<Measured> {
  const result = await build({
    entryPoints: [ENTRY],
    plugins: [
      {
        name: "virtual-entry",
        setup(b) {
          b.onResolve({ filter: new RegExp(`^${ENTRY}$`) }, () => ({ path: "entry.ts", namespace: ENTRY }));
          b.onLoad({ filter: /.*/, namespace: ENTRY }, () => ({ contents, resolveDir: src, loader: "ts" }));
        },
      },
    ],
    bundle: true,
    splitting: true,
    outdir: "out",
    minify: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const outputs = result.metafile.outputs;
  const entry = Object.keys(outputs).find((file) => outputs[file]!.entryPoint !== undefined)!;
  // What loading the entry loads: the entry chunk and the chunks it imports statically.
  const eager = new Set<string>();
  const visit = (file: string) => {
    if (eager.has(file)) return;
    eager.add(file);
    for (const imported of outputs[file]!.imports) if (imported.kind === "import-statement") visit(imported.path);
  };
  visit(entry);
  const code = (files: string[]) => Buffer.concat(result.outputFiles.filter((f) => files.some((file) => f.path.endsWith(file))).map((f) => f.contents));
  const sizes = (bytes: Buffer) => ({ minified: bytes.byteLength, gzipped: bytes.byteLength === 0 ? 0 : gzipSync(bytes, { level: 9 }).byteLength });
  const eagerFiles = [...eager];
  const lazyFiles = Object.keys(outputs).filter((file) => !eager.has(file));
  const modules = eagerFiles
    .flatMap((file) => Object.entries((outputs[file] as Metafile["outputs"][string]).inputs))
    .map(([file, input]): [string, number] => [file.replace(/^.*packages\/client\/src\//, ""), input.bytesInOutput])
    .filter(([, bytes]) => bytes > 0)
    .sort((a, b) => b[1] - a[1]);
  return { ...sizes(code(eagerFiles)), modules, lazy: sizes(code(lazyFiles)) };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(2)} KB`;

const core = await measure('export * from "./index.ts";');
const clientOnly = await measure('export { FeedbackClient } from "./index.ts";');
const locales = await measure('export * from "./locales/index.ts";');

console.log("@tidings/client core entry (minified, ESM, platform neutral)");
for (const [file, bytes] of core.modules) console.log(`  ${String(bytes).padStart(6)} B  ${(100 * bytes / core.minified).toFixed(1).padStart(5)} %  ${file}`);
console.log(`  whole entry: minified ${kb(core.minified)}, min+gzip ${kb(core.gzipped)} (everything exported, controllers included)`);
console.log(`core (FeedbackClient, as an app imports it): min+gzip ${kb(clientOnly.gzipped)} (${clientOnly.gzipped} B) — budget ${kb(BUDGET_BYTES)}`);
console.log(`loaded on demand, not in the core (the altcha solver on its first challenge; plain-JavaScript PBKDF2 without Web Crypto): min+gzip ${kb(clientOnly.lazy.gzipped)}`);
console.log(`@tidings/client/locales (not in the core): min+gzip ${kb(locales.gzipped)}`);

if (clientOnly.gzipped > BUDGET_BYTES) {
  console.error(`Over budget by ${clientOnly.gzipped - BUDGET_BYTES} B (${kb(clientOnly.gzipped - BUDGET_BYTES)}).`);
  process.exitCode = 1;
} else {
  console.log(`Within budget, ${BUDGET_BYTES - clientOnly.gzipped} B to spare.`);
}

const reactSrc = fileURLToPath(new URL("../../packages/react/src/", import.meta.url));

/** Minified and gzipped bytes of a `@tidings/react` source entry bundled for browsers. */
async function measureReact(entry: string, external: string[]): Promise<{ minified: number; gzipped: number }> {
  const result = await build({
    entryPoints: [`${reactSrc}${entry}`],
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2020",
    jsx: "automatic",
    external,
    define: { "process.env.NODE_ENV": '"production"' },
    loader: { ".css": "css" },
    write: false,
    outdir: "out",
    logLevel: "silent",
  });
  const code = result.outputFiles.find((f) => f.path.endsWith(".js"))!.contents;
  return { minified: code.byteLength, gzipped: gzipSync(code, { level: 9 }).byteLength };
}

const reactEntry = await measureReact("index.ts", ["react", "react-dom", "react/jsx-runtime", "@tidings/client"]);
const css = await build({ entryPoints: [`${reactSrc}styles.css`], bundle: true, minify: true, write: false, logLevel: "silent" });
const cssGzip = gzipSync(css.outputFiles[0]!.contents, { level: 9 }).byteLength;
const portal = await measureReact("portal/portal-entry.tsx", []);
const widget = await measureReact("portal/widget.ts", []);
console.log("");
console.log("@tidings/react (no budget; react, react-dom and @tidings/client external)");
console.log(`  entry: minified ${kb(reactEntry.minified)}, min+gzip ${kb(reactEntry.gzipped)} (every screen, hook and the 14 UI catalogs)`);
console.log(`  styles.css: min+gzip ${kb(cssGzip)}`);
console.log(`portal bundle /p/assets/portal.js (React and the SDK included): minified ${kb(portal.minified)}, min+gzip ${kb(portal.gzipped)}`);
console.log(`widget loader /widget.js: min+gzip ${kb(widget.gzipped)}`);
