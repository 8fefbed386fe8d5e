import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const src = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url));

export default defineConfig({
  // Tests run against the sources, so they never see a stale build.
  resolve: { alias: { "@tidings/protocol": src("protocol") } },
  test: {
    include: ["packages/*/src/**/*.test.ts", "packages/*/src/**/*.test.tsx", "e2e/src/**/*.test.ts"],
    // Data-layer suites open their own SQLite files or PostgreSQL schemas, so files may run in parallel.
    pool: "forks",
    testTimeout: 20_000,
    hookTimeout: 30_000,
    reporters: ["default"],
  },
});
