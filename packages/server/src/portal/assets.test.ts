import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadPortalAssets } from "./assets.js";

describe("portal assets", () => {
  it("looks for the bundles again when the folder it found loses them", () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "tidings-portal-assets-"));
    const packed = path.join(root, "packed");
    const workspace = path.join(root, "workspace");
    for (const [dir, body] of [[packed, "packed()"], [workspace, "workspace()"]] as const) {
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, "portal.js"), body);
      fs.writeFileSync(path.join(dir, "portal.css"), "body{}");
    }
    const find = () => (fs.existsSync(path.join(packed, "portal.js")) ? packed : workspace);
    const assets = loadPortalAssets(find);
    expect(assets.get("portal.js")?.body.toString()).toBe("packed()");
    // The packed copy goes (as postpack removes it); a file not read yet comes from the workspace.
    fs.rmSync(packed, { recursive: true });
    expect(assets.get("portal.css")?.body.toString()).toBe("body{}");
    expect(assets.get("widget.js")).toBeUndefined();
    fs.rmSync(root, { recursive: true });
  });
});
