/**
 * React Native apps built as their developers build them. The Expo example (examples/expo-app,
 * whose App.tsx is the React Native README's example) and a bare React Native CLI app with the
 * same screens install the packed Tidings packages, then bundle for release with each toolchain's
 * default settings; a bundling failure fails the suite. Each bundle must hold one copy of every
 * module, and Tidings must stay within its size budget, read from the source map.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleBare, exportExpo, installExample, typecheckExample } from "./example-app.js";
import { formatSizes, measureRelease, shortSource, TIDINGS_BUDGET_BYTES, type ReleaseSize } from "./release-size.js";

const sizes: ReleaseSize[] = [];
const folders: string[] = [];

function checkBundle(size: ReleaseSize) {
  expect(size.duplicates.map(([module, holders]) => `${module}: ${holders.map(shortSource).join(", ")}`)).toEqual([]);
  // Every Tidings package the app imports is in the bundle, as the published ES modules.
  expect([...size.tidings.keys()]).toEqual(["@tidings/client", "@tidings/react-core", "@tidings/react-native"]);
  const tidingsSources = size.sources.filter((source) => source.includes("node_modules/@tidings/"));
  expect(tidingsSources.filter((source) => !/node_modules\/@tidings\/[^/]+\/dist\/esm\//.test(source)).map(shortSource)).toEqual([]);
  // English is built in; the app imports no other language, so no other language is in the bundle.
  const languages = tidingsSources.filter((source) => /\/dist\/esm\/(i18n|locales)\/(?!en\.js$)[a-z]{2}(-[a-z]+)?\.js$/.test(source));
  expect(languages.map(shortSource)).toEqual([]);
  expect(size.tidingsBytes).toBeLessThanOrEqual(TIDINGS_BUDGET_BYTES);
  expect(size.bytecodeBytes).toBeGreaterThan(0);
}

// The installed apps hold hundreds of megabytes of node_modules: removing them can outlast the
// default hook timeout on a busy two-core machine.
afterAll(async () => {
  if (sizes.length > 0) console.log(formatSizes(sizes));
  await Promise.all(folders.map((folder) => fs.promises.rm(folder, { recursive: true, force: true })));
}, 180_000);

describe("the Expo example app", () => {
  let app: string;
  beforeAll(async () => {
    app = await installExample("expo-app");
    folders.push(path.dirname(app));
  }, 900_000);

  it("type-checks with its own TypeScript and Expo's tsconfig", async () => {
    await typecheckExample(app);
  }, 300_000);

  it.each(["ios", "android"] as const)("exports for %s with `npx expo export` and Expo's default Metro config", async (platform) => {
    const size = measureRelease(`expo ${platform}`, await exportExpo(app, platform));
    sizes.push(size);
    checkBundle(size);
  }, 900_000);
});

describe("a bare React Native app (React Native CLI) with the same screens", () => {
  let app: string;
  beforeAll(async () => {
    app = await installExample("bare-react-native");
    folders.push(path.dirname(app));
  }, 900_000);

  it("bundles for Android with `npx react-native bundle` and React Native's default Metro config", async () => {
    const size = measureRelease("bare android", await bundleBare(app, "android"));
    sizes.push(size);
    checkBundle(size);
  }, 900_000);
});
