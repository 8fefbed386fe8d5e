import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export { chromiumAvailable, launchChromium } from "../chromium.js";

/** Where screenshots go (gitignored). */
export const ARTIFACTS = fileURLToPath(new URL("../../artifacts/", import.meta.url));

export function artifact(name: string): string {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  return path.join(ARTIFACTS, name);
}

/** A 1×1 PNG. */
export const PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";
