/* global console, process */
// Runs before `npm pack` / `npm publish` (prepack): copies the built admin dashboard and portal
// bundles into dist/public, so the published package serves both without the workspace packages
// they come from (build them first: `npm run build` at the root). `--clean` (postpack) removes
// the copies again, so a checkout keeps serving the workspace builds rather than a stale copy.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const server = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const packages = path.join(server, "..");
const target = path.join(server, "dist", "public");

fs.rmSync(target, { recursive: true, force: true });
if (process.argv.includes("--clean")) process.exit(0);

const copies = [
  { from: path.join(packages, "dashboard", "dist", "public"), to: "dashboard", needs: "index.html" },
  { from: path.join(packages, "react", "dist", "portal"), to: "portal", needs: "portal.js" },
];
for (const { from, to, needs } of copies) {
  if (!fs.existsSync(path.join(from, needs))) {
    console.error(`${path.relative(packages, from)}/${needs} is missing: run \`npm run build\` at the repository root first`);
    process.exit(1);
  }
  // Source maps stay behind: they point at sources the package does not carry.
  fs.cpSync(from, path.join(target, to), { recursive: true, filter: (file) => !file.endsWith(".map") });
  console.log(`bundled ${path.relative(packages, from)} into dist/public/${to}`);
}
