import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const src = (pkg: string, file = "index") => fileURLToPath(new URL(`./packages/${pkg}/src/${file}.ts`, import.meta.url));

export default defineConfig({
  // Tests run against the sources, so they never see a stale build.
  resolve: {
    alias: [
      { find: /^@tidings\/protocol$/, replacement: src("protocol") },
      { find: /^@tidings\/protocol\/testing$/, replacement: src("protocol", "testing/hostile-text") },
    ],
  },
  test: {
    include: ["packages/*/src/**/*.test.ts", "packages/*/src/**/*.test.tsx", "e2e/src/**/*.test.ts", "scripts/**/*.test.mjs"],
    // React Native's suites run under Jest with its preset (`npm test -w @tidings/react-native`).
    exclude: ["packages/react-native/**", "**/node_modules/**"],
    // Data-layer suites open their own SQLite files or PostgreSQL schemas, so files may run in parallel.
    pool: "forks",
    testTimeout: 20_000,
    hookTimeout: 30_000,
    reporters: ["default"],
  },
});
