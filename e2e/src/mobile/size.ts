/**
 * `npm run size`: builds the example apps from the packed packages as the tests do, and prints
 * Tidings' share of each release bundle per package (Expo for iOS and Android, a bare React
 * Native app for iOS and Android), with the Hermes bytecode sizes and the web figures beside them.
 * Exits 1 when a bundle is over the budget or holds a module twice.
 */
import fs from "node:fs";
import path from "node:path";
import { bundleBare, exportExpo, installExample } from "./example-app.js";
import { formatSizes, measureRelease, measureWeb, TIDINGS_BUDGET_BYTES } from "./release-size.js";

const expo = await installExample("expo-app");
const bare = await installExample("bare-react-native");
try {
  const sizes = [
    measureRelease("expo ios", await exportExpo(expo, "ios")),
    measureRelease("expo android", await exportExpo(expo, "android")),
    measureRelease("bare ios", await bundleBare(bare, "ios")),
    measureRelease("bare android", await bundleBare(bare, "android")),
    await measureWeb(),
  ];
  console.log(formatSizes(sizes));
  const failures = sizes.filter((size) => size.label !== "web" && (size.tidingsBytes > TIDINGS_BUDGET_BYTES || size.duplicates.length > 0));
  for (const size of failures) console.error(`${size.label}: ${size.tidingsBytes} bytes of Tidings (budget ${TIDINGS_BUDGET_BYTES}), ${size.duplicates.length} duplicated modules`);
  if (failures.length > 0) process.exitCode = 1;
} finally {
  for (const app of [expo, bare]) fs.rmSync(path.dirname(app), { recursive: true, force: true });
}
