// Bundles the dashboard into dist/public (what the server serves at /admin/): one ES module,
// one stylesheet, index.html. Run by the root `build` script, so `npm start` and `npm test` have it.
import fs from "node:fs";
import { URL, fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const out = `${root}/dist/public`;
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });
await build({
  entryPoints: [`${root}/src/main.tsx`],
  bundle: true,
  format: "esm",
  target: "es2022",
  minify: true,
  sourcemap: true,
  jsx: "automatic",
  define: { "process.env.NODE_ENV": '"production"' },
  outfile: `${out}/app.js`,
  logLevel: "warning",
});
fs.copyFileSync(`${root}/src/index.html`, `${out}/index.html`);
fs.copyFileSync(`${root}/src/styles.css`, `${out}/styles.css`);
