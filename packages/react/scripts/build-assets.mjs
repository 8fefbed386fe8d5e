/* global console */
// Writes what tsc does not: the stylesheet, and the portal
// bundles the server serves (dist/portal/portal.js, widget.js, portal.css).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const dist = path.join(root, "dist");
fs.mkdirSync(dist, { recursive: true });
fs.copyFileSync(path.join(root, "src", "styles.css"), path.join(dist, "styles.css"));

const common = {
  bundle: true,
  minify: true,
  sourcemap: false,
  target: ["es2020", "chrome100", "firefox100", "safari15"],
  legalComments: "none",
  define: { "process.env.NODE_ENV": '"production"' },
  logLevel: "warning",
};
const results = await Promise.all([
  build({ ...common, entryPoints: [path.join(root, "src", "portal", "portal-entry.tsx")], outfile: path.join(dist, "portal", "portal.js"), format: "esm", jsx: "automatic", metafile: true }),
  build({ ...common, entryPoints: [path.join(root, "src", "portal", "widget.ts")], outfile: path.join(dist, "portal", "widget.js"), format: "iife", metafile: true }),
]);
// The portal page has no other stylesheet, so it may style its own body; its own rules follow the components'.
const css = (file) => fs.readFileSync(path.join(root, "src", file), "utf8");
fs.writeFileSync(path.join(dist, "portal", "portal.css"), `body { margin: 0; }\n${css("styles.css")}${css(path.join("portal", "portal.css"))}`);
for (const result of results) {
  for (const [file, meta] of Object.entries(result.metafile.outputs)) console.log(`${path.relative(root, file)}: ${(meta.bytes / 1024).toFixed(1)} KiB`);
}
