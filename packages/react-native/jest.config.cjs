// Jest (not Vitest) runs this package: React Native's preset, Babel, and the sibling packages'
// sources, so tests never see a stale build.
const path = require("node:path");
const preset = require("@react-native/jest-preset");

const src = (pkg, file = "index.ts") => path.join(__dirname, "..", pkg, "src", file);

/** @type {import("jest").Config} */
module.exports = {
  preset: "@react-native/jest-preset",
  rootDir: __dirname,
  roots: ["<rootDir>/src"],
  testMatch: ["**/*.test.ts", "**/*.test.tsx"],
  testTimeout: 30_000,
  setupFilesAfterEnv: ["<rootDir>/src/test-support/jest-setup.ts"],
  moduleNameMapper: {
    ...preset.moduleNameMapper,
    "^@tidings/client$": src("client"),
    "^@tidings/client/locales$": src("client", "locales/index.ts"),
    "^@tidings/client/outbox$": src("client", "outbox.ts"),
    "^@tidings/client/locales/([a-z-]+)$": src("client", "locales/$1.ts"),
    "^@tidings/protocol$": src("protocol"),
    "^@tidings/react-core$": src("react-core"),
    "^@tidings/react-core/testing$": src("react-core", "testing/index.ts"),
    "^@tidings/react-core/locales$": src("react-core", "locales/index.ts"),
    "^@tidings/react-core/locales/([a-z-]+)$": src("react-core", "locales/$1.ts"),
    // The test kits (the real-server starter), shared with the server's and the end-to-end tests.
    "^@tidings/testing/(.+)$": src("testing", "$1.ts"),
    // The workspace sources import siblings as `./x.js` (NodeNext); Jest resolves the `.ts` file.
    "^(\\.{1,2}/.*)\\.js$": "$1",
  },
  transformIgnorePatterns: ["node_modules/(?!((jest-)?react-native|@react-native(-community)?|@testing-library)/)"],
};
