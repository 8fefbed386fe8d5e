import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["**/dist/**", "**/node_modules/**", "data/**", "coverage/**", "e2e/artifacts/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.ts", "**/*.tsx"],
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-console": "error",
    },
  },
  {
    // CommonJS helpers (autocannon loads them in its worker threads), and the example apps' Metro
    // and Babel configs, which those tools load as CommonJS.
    files: ["**/*.cjs", "examples/*/*.config.js"],
    languageOptions: { sourceType: "commonjs", globals: { process: "readonly", module: "writable", require: "readonly", __dirname: "readonly" } },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    files: ["**/*.test.ts", "**/*.test.tsx", "bench/**/*.ts", "e2e/**/*.ts"],
    rules: { "no-console": "off" },
  },
);
