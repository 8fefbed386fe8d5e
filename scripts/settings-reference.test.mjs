import fs from "node:fs";
import { URL } from "node:url";
import { describe, expect, it } from "vitest";
import { renderSettingsReference, SETTINGS_DOC } from "./settings-reference.mjs";

describe("docs/settings.md", () => {
  it("is what `npm run docs:settings` writes from config.ts (run it after changing a setting)", () => {
    expect(fs.readFileSync(SETTINGS_DOC, "utf8")).toBe(renderSettingsReference());
  });

  it("names every variable loadConfig reads, each with its default", () => {
    const server = new URL("../packages/server/src/", import.meta.url);
    const helpers = fs.readdirSync(new URL("config/", server)).filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"));
    const source = ["config.ts", ...helpers.map((name) => `config/${name}`)].map((file) => fs.readFileSync(new URL(file, server), "utf8")).join("\n");
    const read = new Set([...source.matchAll(/env\.([A-Z][A-Z0-9_]+)|env, "([A-Z][A-Z0-9_]+)"|"((?:S3|AWS)_[A-Z_]+)"/g)].map((m) => m[1] ?? m[2] ?? m[3]));
    const doc = renderSettingsReference();
    for (const variable of read) expect(doc).toContain(`\`${variable}\``);
    expect(doc).toMatch(/\| `PORT` \| `port` \| `8787` \|/);
    expect(doc).toMatch(/\| `TIDINGS_RATE_LIMIT_SEARCH` \| `search` \| `30\/60` \|/);
  });
});
