/**
 * The packages as a registry would hand them out: each is packed with `npm pack`, linted
 * (publint, Are the Types Wrong?), installed from its tarball into a scratch project, and used
 * there by ESM and CommonJS code, by TypeScript with `moduleResolution` node16 and bundler, and
 * `npx @tidings/server` runs the installed server. The install reads npm's local cache first
 * (`--prefer-offline`), so it takes seconds when the workspace's own install filled it.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { publint } from "publint";
import { formatMessage } from "publint/utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { npm, packWorkspaces, ROOT } from "../mobile/packs.js";
import { startServerProcess, stopGroup, type ServerProcess } from "@tidings/testing/server-process";

const run = promisify(execFile);
const bin = (name: string) => path.join(ROOT, "node_modules", ".bin", name);

/**
 * The published packages, and how Are the Types Wrong? reads each. Every package ships ES modules
 * only, so that no bundler can load a second, CommonJS copy of a module (Metro asserts `require`
 * for `require()` calls, and would); Node ≥ 20.19 `require()`s them, so only the ESM resolutions
 * are checked. A stylesheet has no types to resolve.
 */
const ESM_ONLY = ["--profile", "esm-only"];
const PACKAGES = [
  { name: "@tidings/protocol", attw: ESM_ONLY },
  { name: "@tidings/client", attw: ESM_ONLY },
  { name: "@tidings/react-core", attw: ESM_ONLY },
  { name: "@tidings/react", attw: [...ESM_ONLY, "--exclude-entrypoints", "./styles.css"] },
  { name: "@tidings/react-native", attw: ESM_ONLY },
  { name: "@tidings/server", attw: ESM_ONLY },
] as const;

// `npm test` built these before the tests run. Their prepack would build them again, and
// @tidings/react's rewrites the portal bundle that suites running alongside may be serving.
const PACK_WITHOUT_SCRIPTS = new Set(["@tidings/protocol", "@tidings/react"]);

let work: string;
let scratch: string;
const tarballs = new Map<string, string>();
let installSeconds = 0;

async function pack(names: readonly string[], ignoreScripts: boolean): Promise<void> {
  for (const [name, tarball] of await packWorkspaces(names, path.join(work, "packs"), ignoreScripts)) tarballs.set(name, tarball);
}

/** Runs `node file` in the scratch project and answers what it printed. */
async function node(file: string, ...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [file, ...args], { cwd: scratch, timeout: 30_000 });
  return stdout;
}

const ESM_CONSUMER = `
import { FeedbackClient } from "@tidings/client";
import { getMessages } from "@tidings/client/locales";
import { deMessages } from "@tidings/client/locales/de";
import { TidingsProvider } from "@tidings/react";
import { createTranslator, useTidings } from "@tidings/react-core";
import { allLocales } from "@tidings/react-core/locales";
import { de } from "@tidings/react-core/locales/de";
import { buildApp, loadConfig } from "@tidings/server";
import { createElement } from "react";
import { renderToString } from "react-dom/server";

const client = new FeedbackClient({ baseUrl: process.argv[2], appKey: "app_demo" });
const config = await client.getConfig();
const html = renderToString(createElement(TidingsProvider, { client }, createElement("p", null, "inside the provider")));
const app = await buildApp({ ...loadConfig({ DATA_DIR: process.argv[3], LOG_LEVEL: "silent" }), demo: true }, { logger: false });
const served = await app.inject({ url: "/api/v1/public/config/app_demo" });
await app.close();
// React Native screens run only inside React Native: here, where Node would load them from.
const native = import.meta.resolve("@tidings/react-native");
const german = { text: createTranslator(de)("feedback.submit"), sdk: de.messages === deMessages, all: allLocales.length };
console.log(JSON.stringify({ name: config.name, english: Object.keys(getMessages("en")).length, html, hook: typeof useTidings, library: served.json().name, native, german }));
`;

const CJS_CONSUMER = `
const { FeedbackClient } = require("@tidings/client");
const { getMessages } = require("@tidings/client/locales");
const { deMessages } = require("@tidings/client/locales/de");
const { TidingsProvider } = require("@tidings/react");
const { createTranslator, useTidings } = require("@tidings/react-core");
const { allLocales } = require("@tidings/react-core/locales");
const { de } = require("@tidings/react-core/locales/de");
const { createElement } = require("react");
const { renderToString } = require("react-dom/server");

(async () => {
  const client = new FeedbackClient({ baseUrl: process.argv[2], appKey: "app_demo" });
  const config = await client.getConfig();
  const html = renderToString(createElement(TidingsProvider, { client }, createElement("p", null, "inside the provider")));
  const native = require.resolve("@tidings/react-native");
  const german = { text: createTranslator(de)("feedback.submit"), sdk: de.messages === deMessages, all: allLocales.length };
  console.log(JSON.stringify({ name: config.name, english: Object.keys(getMessages("en")).length, html, hook: typeof useTidings, native, german }));
})().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
`;

/** Type-checked only: each import, a call and a type from every SDK package. */
const TYPED_IMPORTS = `
import { FeedbackClient, FeedbackException, type MessageCatalog, type PublicAppConfig } from "@tidings/client";
import { getMessages } from "@tidings/client/locales";
import { deMessages } from "@tidings/client/locales/de";
import { TidingsProvider, FeatureRequestList } from "@tidings/react";
import { useTidings, type LocalePack, type TidingsContextValue } from "@tidings/react-core";
import { allLocales } from "@tidings/react-core/locales";
import { de } from "@tidings/react-core/locales/de";

export const client = new FeedbackClient({ baseUrl: "https://feedback.example.com", appKey: "app_demo" });
export const config: Promise<PublicAppConfig> = client.getConfig();
export const catalog: MessageCatalog = getMessages("fr");
export const german: MessageCatalog = deMessages;
export const packs: readonly LocalePack[] = [de, ...allLocales];
export const isSdkError = (error: unknown): boolean => error instanceof FeedbackException;
export const parts = [TidingsProvider, FeatureRequestList, useTidings] as const;
export type Context = TidingsContextValue;
`;

const TYPED_SERVER = `
import { buildApp, loadConfig, type Config } from "@tidings/server";

export const config: Config = loadConfig({ DATA_DIR: "./data" });
export const started = buildApp(config, { logger: false }).then((app) => app.close());
`;

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "tidings-packages-"));
  scratch = path.join(work, "consumer");
  fs.mkdirSync(path.join(work, "packs"));
  fs.mkdirSync(scratch);
  await pack(PACKAGES.map((p) => p.name).filter((name) => !PACK_WITHOUT_SCRIPTS.has(name)), false);
  await pack([...PACK_WITHOUT_SCRIPTS], true);

  const dependencies = Object.fromEntries(PACKAGES.map(({ name }) => [name, `file:${tarballs.get(name)}`]));
  const versionOf = (name: string) => (JSON.parse(fs.readFileSync(path.join(ROOT, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;
  fs.writeFileSync(
    path.join(scratch, "package.json"),
    JSON.stringify({
      name: "tidings-consumer",
      private: true,
      dependencies: { ...dependencies, react: versionOf("react"), "react-dom": versionOf("react-dom"), "@types/react": versionOf("@types/react"), "@types/node": versionOf("@types/node") },
      overrides: {
        // Dependencies between our packages come from the tarballs, never from a registry.
        ...Object.fromEntries(PACKAGES.map(({ name }) => [name, `$${name}`])),
        // The workspace's build of the SQLite driver, linked: compiling SQLite again would take minutes.
        "better-sqlite3": `file:${path.join(ROOT, "node_modules", "better-sqlite3")}`,
      },
    }),
  );
  const started = performance.now();
  // React Native itself is not installed (a peer dependency the app brings): --legacy-peer-deps.
  // No install scripts: the linked SQLite driver is built already, and nothing else needs one.
  await npm(["install", "--prefer-offline", "--no-audit", "--no-fund", "--legacy-peer-deps", "--ignore-scripts", "--loglevel=error"], scratch, 240_000);
  installSeconds = (performance.now() - started) / 1000;
  console.log(`installed the packed tarballs into a scratch project in ${installSeconds.toFixed(1)} s`);

  fs.writeFileSync(path.join(scratch, "esm.mjs"), ESM_CONSUMER);
  fs.writeFileSync(path.join(scratch, "cjs.cjs"), CJS_CONSUMER);
}, 300_000);

afterAll(() => {
  if (work !== undefined) fs.rmSync(work, { recursive: true, force: true });
});

describe("the published packages", () => {
  it.each(PACKAGES.map((p) => [p.name, p] as const))("%s: publint and Are the Types Wrong? find nothing in its tarball", async (_name, { name, attw }) => {
    const tarball = fs.readFileSync(tarballs.get(name)!);
    const { messages, pkg } = await publint({ pack: { tarball: new Uint8Array(tarball).buffer }, level: "suggestion", strict: true });
    expect(messages.map((message) => `${message.type}: ${formatMessage(message, pkg) ?? message.code}`)).toEqual([]);
    const result = await run(bin("attw"), [tarballs.get(name)!, "--format", "ascii", "--no-color", ...attw], { timeout: 60_000 }).then(
      () => "ok",
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    expect(result).toBe("ok");
  }, 60_000);

  it("carries the server's dashboard and portal bundles in its tarball, and no tests", async () => {
    const { stdout } = await run("tar", ["-tzf", tarballs.get("@tidings/server")!]);
    const files = stdout.split("\n");
    expect(files).toContain("package/dist/public/dashboard/index.html");
    expect(files).toContain("package/dist/public/dashboard/app.js");
    expect(files).toContain("package/dist/public/portal/portal.js");
    expect(files).toContain("package/dist/public/portal/widget.js");
    expect(files).toContain("package/dist/cli.js");
    expect(files.filter((file) => /\.test\.|\/testing\/|\/fuzz\/|test-kit|\.map$/.test(file))).toEqual([]);
    // Packing leaves the checkout as it was: the workspace builds stay what a checkout serves.
    expect(fs.existsSync(path.join(ROOT, "packages", "server", "dist", "public"))).toBe(false);
  });

  describe("installed in a scratch project", () => {
    let server: ServerProcess;
    beforeAll(async () => {
      server = await startServerProcess({ DATA_DIR: path.join(work, "npx-data"), HOME: process.env.HOME ?? os.homedir() }, 60_000, {
        file: "npx",
        args: ["--no", "@tidings/server"],
        cwd: scratch,
      });
    }, 90_000);
    afterAll(async () => {
      if (server !== undefined) await stopGroup(server);
    });

    it("runs as `npx @tidings/server`: health, the demo config, the dashboard and the portal from the tarball", async () => {
      expect(await (await fetch(`${server.url}/healthz`)).json()).toEqual({ status: "ok" });
      const config = await fetch(`${server.url}/api/v1/public/config/app_demo`);
      expect(config.status).toBe(200);
      const dashboard = await fetch(`${server.url}/admin/`);
      expect(dashboard.status).toBe(200);
      expect(await dashboard.text()).toContain("<html");
      const portal = await fetch(`${server.url}/p/assets/portal.js`);
      expect(portal.status).toBe(200);
      expect((await portal.text()).length).toBeGreaterThan(10_000);
    });

    it("works from an ES module: the client against that server, the provider rendered, the server as a library", async () => {
      const out = JSON.parse(await node("esm.mjs", server.url, path.join(work, "library-data"))) as Record<string, unknown>;
      expect(out).toMatchObject({ hook: "function", library: out.name });
      expect(typeof out.name).toBe("string");
      expect(out.english).toBeGreaterThan(10);
      expect(out.html).toContain("inside the provider");
      expect(out.native).toMatch(/node_modules\/@tidings\/react-native\/dist\/esm\/index\.js$/);
      expect(out.german).toEqual({ text: "Senden", sdk: true, all: 14 });
    }, 30_000);

    it("works from CommonJS: require() of the client, its locales, react-core, its language packs and react (the ES modules themselves)", async () => {
      const out = JSON.parse(await node("cjs.cjs", server.url)) as Record<string, unknown>;
      expect(out).toMatchObject({ hook: "function" });
      expect(typeof out.name).toBe("string");
      expect(out.html).toContain("inside the provider");
      expect(out.native).toMatch(/node_modules\/@tidings\/react-native\/dist\/esm\/index\.js$/);
      expect(out.german).toEqual({ text: "Senden", sdk: true, all: 14 });
    }, 30_000);

    // Our declarations are checked with everything they import (skipLibCheck off); the server's
    // pull in Fastify's and the AWS SDK's, which are not ours to check and take a minute.
    it.each([
      // node20: CommonJS that require()s ES modules, as Node 20.19 does.
      ["node20", "the SDK", { module: "node20", moduleResolution: "node16", skipLibCheck: false }, { "esm.mts": TYPED_IMPORTS, "cjs.cts": TYPED_IMPORTS }],
      ["bundler", "the SDK", { module: "preserve", moduleResolution: "bundler", skipLibCheck: false }, { "app.ts": TYPED_IMPORTS }],
      ["node16", "the server", { module: "node16", moduleResolution: "node16", skipLibCheck: true }, { "server.mts": TYPED_SERVER }],
      ["bundler", "the server", { module: "preserve", moduleResolution: "bundler", skipLibCheck: true }, { "server.ts": TYPED_SERVER }],
    ] as const)("type-checks with moduleResolution %s: %s", async (mode, what, options, files) => {
      const dir = path.join(scratch, `typed-${mode}-${what.replace(/\W+/g, "-")}`);
      fs.mkdirSync(dir, { recursive: true });
      for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), text);
      const tsconfig = {
        compilerOptions: { ...options, target: "es2022", lib: ["es2023", "dom"], jsx: "react-jsx", strict: true, noEmit: true, types: ["node"] },
        files: Object.keys(files),
      };
      fs.writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify(tsconfig));
      const result = await run(process.execPath, [path.join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", dir], { timeout: 90_000 }).then(
        () => "ok",
        (error: { stdout?: string }) => error.stdout ?? String(error),
      );
      expect(result).toBe("ok");
    }, 90_000);
  });
});
