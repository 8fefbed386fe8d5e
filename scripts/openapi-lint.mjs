// Part of `npm test` (`npm run lint:openapi`): writes the OpenAPI document the server serves at
// /api/v1/openapi.json, built by buildApp (never listening, on an in-memory SQLite database), and
// holds it to Redocly's recommended rules (redocly.yaml). Any error fails; warnings are printed.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import process from "node:process";
import { URL, fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const { buildApp } = await import(path.join(root, "packages/server/dist/app.js"));
const { loadConfig } = await import(path.join(root, "packages/server/dist/config.js"));

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tidings-openapi-"));
const out = path.join(root, "node_modules/.cache/openapi/openapi.json");
try {
  const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: "sqlite::memory:", LOG_LEVEL: "silent", TIDINGS_DEMO: "false" });
  const app = await buildApp(config, { logger: false, jobIntervalMs: 0 });
  try {
    const res = await app.inject({ url: "/api/v1/openapi.json" });
    if (res.statusCode !== 200) throw new Error(`GET /api/v1/openapi.json answered ${res.statusCode}`);
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, `${JSON.stringify(res.json(), null, 2)}\n`);
  } finally {
    await app.close();
  }
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}

const lint = spawnSync(
  process.execPath,
  [path.join(root, "node_modules/@redocly/cli/bin/cli.js"), "lint", out, "--config", path.join(root, "redocly.yaml"), "--format", "summary"],
  { cwd: root, stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", REDOCLY_TELEMETRY: "off" } },
);
if (lint.status !== 0) {
  process.stderr.write(`lint:openapi: ${path.relative(root, out)} breaks Redocly's recommended rules (above)\n`);
  process.exit(1);
}
process.stdout.write("lint:openapi: the API description passes Redocly's recommended rules\n");
