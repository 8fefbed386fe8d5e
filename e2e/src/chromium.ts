import fs from "node:fs";
import { chromium, type Browser } from "playwright-core";

/** Debian's Chromium (installed by `.ci/run`); overridable for other machines. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * Whether the browser tests can run. Without Chromium they are skipped with a message, except with
 * CI=true, where a missing browser is a failure.
 */
export function chromiumAvailable(): boolean {
  if (fs.existsSync(CHROMIUM_PATH)) return true;
  if (process.env.CI === "true") throw new Error(`CI=true but Chromium is missing at ${CHROMIUM_PATH}: apt-get install -y chromium`);
  console.warn(`[browser tests] skipped: no Chromium at ${CHROMIUM_PATH} (apt-get install -y chromium, or set CHROMIUM_PATH)`);
  return false;
}

/** Headless Chromium with the flags a container needs (no background traffic to the closed network). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}
