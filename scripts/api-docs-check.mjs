// Part of `npm run docs:check`: builds the SDK API reference (typedoc.json) into a scratch folder,
// which fails when a public export has no doc comment (TypeDoc's notDocumented validation, treated
// as an error), then fails when docs/api differs from it (run `npm run docs:api`).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import process from "node:process";
import { URL, fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const scratch = path.join(root, "node_modules/.cache/docs-api");
const committed = path.join(root, "docs/api");

fs.rmSync(scratch, { recursive: true, force: true });
const typedoc = spawnSync(process.execPath, [path.join(root, "node_modules/typedoc/bin/typedoc"), "--out", scratch, "--logLevel", "Warn"], {
  cwd: root,
  stdio: "inherit",
});
if (typedoc.status !== 0) {
  process.stderr.write("docs:check: the API reference does not build; every public export needs a doc comment (see the warnings above)\n");
  process.exit(1);
}

function files(dir, prefix = "") {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const rel = path.posix.join(prefix, entry.name);
    return entry.isDirectory() ? files(path.join(dir, entry.name), rel) : [rel];
  });
}

const fresh = new Set(files(scratch));
const stale = [...new Set([...fresh, ...files(committed)])].filter(
  (file) => !fresh.has(file) || !fs.existsSync(path.join(committed, file)) || !fs.readFileSync(path.join(scratch, file)).equals(fs.readFileSync(path.join(committed, file))),
);
if (stale.length > 0) {
  process.stderr.write(`docs:check: docs/api is stale (${stale.length} files differ, e.g. ${stale.slice(0, 3).join(", ")}); run npm run docs:api\n`);
  process.exit(1);
}
process.stdout.write(`docs:check: API reference current (${fresh.size} pages)\n`);
