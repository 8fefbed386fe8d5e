import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

const src = (pkg: string, file = "index") => fileURLToPath(new URL(`./packages/${pkg}/src/${file}.ts`, import.meta.url));
/** A `<pkg>/src/locales/<code>.ts` module for a `…/locales/<code>` subpath (`$1`, the code). */
const localeModule = (pkg: string) => src(pkg, "locales/$1");

/**
 * The files that take longest, longest first (seconds on two idle cores, 238 files in 612 s).
 * Vitest runs first the files it has timings for from an earlier run on this checkout, and on a
 * fresh clone (CI) the largest files first: the Expo example apps, a short file that installs and
 * bundles two apps, then started last and ran alone for its 106 s. Started first, the long files
 * overlap the short ones on the other core. A file missing here only runs in Vitest's own order.
 */
const LONGEST_FIRST = [
  "e2e/src/mobile/example-apps.test.ts", // 106
  "e2e/src/serve.test.ts", // 50
  "packages/server/src/fuzz/fuzz.test.ts", // 49
  "e2e/src/react/portal-accessibility.test.ts", // 35
  "e2e/src/packages/packed-packages.test.ts", // 32
  "packages/server/src/console/session-routes.test.ts", // 29
  "e2e/src/react-native/gallery.test.ts", // 28
  "packages/server/src/feature-requests/board-tag-listing.test.ts", // 24
  "e2e/src/dashboard/dashboard.test.ts", // 20
  "packages/server/src/mcp/mcp.test.ts", // 18
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const at = LONGEST_FIRST.findIndex((name) => file.moduleId.endsWith(`/${name}`));
      return at === -1 ? LONGEST_FIRST.length : at;
    };
    // Array.prototype.sort is stable: the files not listed keep Vitest's order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  // Tests run against the sources, so they never see a stale build.
  resolve: {
    alias: [
      { find: /^@tidings\/protocol$/, replacement: src("protocol") },
      { find: /^@tidings\/protocol\/testing$/, replacement: src("protocol", "testing/hostile-text") },
      // The test kits (`@tidings/testing/test-app`), a private workspace that runs from its sources.
      { find: /^@tidings\/testing\/(.+)$/, replacement: src("testing", "$1") },
      // The language packs an app imports one by one (`@tidings/react-core/locales/de`), and all at once.
      { find: /^@tidings\/client\/locales$/, replacement: src("client", "locales/index") },
      { find: /^@tidings\/client\/locales\/([a-z-]+)$/, replacement: localeModule("client") },
      { find: /^@tidings\/react-core\/locales\/([a-z-]+)$/, replacement: localeModule("react-core") },
      { find: /^@tidings\/react-core\/locales$/, replacement: src("react-core", "locales/index") },
    ],
  },
  test: {
    include: ["packages/*/src/**/*.test.ts", "packages/*/src/**/*.test.tsx", "e2e/src/**/*.test.ts", "scripts/**/*.test.mjs", "bench/src/**/*.test.ts"],
    // React Native's suites run under Jest with its preset (`npm test -w @tidings/react-native`).
    exclude: ["packages/react-native/**", "**/node_modules/**"],
    // Data-layer suites open their own SQLite files or PostgreSQL schemas, so files may run in parallel.
    pool: "forks",
    // One fork per core. Vitest's default leaves one core idle, which on CI's two cores runs the
    // files one at a time: most of them wait on PostgreSQL, a browser or a child server, so two
    // forks take the suite from about 830 s to 463 s there.
    maxWorkers: availableParallelism(),
    // A fork runs file after file with the modules it has loaded already. Isolated, each of the
    // 238 files loaded the server's module graph afresh (about 4 s a file on two cores, more than
    // most files' tests take): the suite took 1,349 s there, and 885 s without isolation. No suite
    // relies on a fresh module state: each opens its own database, app and clock.
    isolate: false,
    sequence: { sequencer: LongestFirst },
    testTimeout: 20_000,
    hookTimeout: 30_000,
    reporters: ["default"],
  },
});
