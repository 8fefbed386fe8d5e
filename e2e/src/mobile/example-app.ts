/**
 * The example apps as their users build them: a copy of the app's folder installs the packed
 * Tidings packages (as it would from the registry) and everything else from the npm registry, then
 * bundles with the platform's own toolchain and default settings: `npx expo export` for the Expo
 * app, `npx react-native bundle` (then Hermes' compiler, as a release build does) for a bare
 * React Native app.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { npm, packWorkspaces, ROOT } from "./packs.js";

const run = promisify(execFile);

/** The packages a React Native app installs. */
export const MOBILE_PACKAGES = ["@tidings/client", "@tidings/react-core", "@tidings/react-native"] as const;

/** The two example apps: the Expo app, and the bare React Native app that bundles the Expo app's App.tsx. */
export type ExampleKind = "expo-app" | "bare-react-native";

/** A bundle as a release build ships it: minified JavaScript with its source map, and Hermes bytecode. */
export interface ReleaseBundle {
  platform: "ios" | "android";
  /** Minified JavaScript, as Metro wrote it. */
  js: string;
  /** Its source map. */
  map: string;
  /** Hermes bytecode size in bytes. */
  bytecodeBytes: number;
}

/** Runs a command in `cwd`; a failure carries everything it printed. */
async function exec(file: string, args: string[], cwd: string, timeoutMs: number): Promise<string> {
  try {
    const { stdout, stderr } = await run(file, args, { cwd, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, CI: "1", EXPO_NO_TELEMETRY: "1", npm_config_update_notifier: "false" } });
    return stdout + stderr;
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${file} ${args.join(" ")} failed in ${cwd}: ${failed.message}\n${failed.stdout ?? ""}\n${failed.stderr ?? ""}`, { cause: error });
  }
}

/**
 * Packs the mobile packages (built already: `npm test` type-checks, which builds them) and
 * installs a copy of `examples/<kind>` with them in a new folder, answered. The bare app gets the
 * Expo app's `App.tsx`: the same screens, through the other toolchain.
 *
 * @example
 * ```ts
 * const dir = await installExample("expo-app");
 * ```
 */
export async function installExample(kind: ExampleKind, work = fs.mkdtempSync(path.join(os.tmpdir(), `tidings-${kind}-`))): Promise<string> {
  const packs = path.join(work, "packs");
  fs.mkdirSync(packs, { recursive: true });
  const tarballs = await packWorkspaces(MOBILE_PACKAGES, packs, true);
  const app = path.join(work, "app");
  fs.cpSync(path.join(ROOT, "examples", kind), app, { recursive: true, filter: (source) => !/[/\\](node_modules|dist|\.expo)$/.test(source) });
  if (kind === "bare-react-native") fs.copyFileSync(path.join(ROOT, "examples", "expo-app", "App.tsx"), path.join(app, "App.tsx"));
  const manifest = JSON.parse(fs.readFileSync(path.join(app, "package.json"), "utf8")) as { dependencies: Record<string, string>; overrides?: Record<string, string> };
  for (const [name, tarball] of tarballs) manifest.dependencies[name] = `file:${tarball}`;
  // Dependencies between our packages come from the tarballs too, never from a registry.
  manifest.overrides = { ...manifest.overrides, ...Object.fromEntries([...tarballs.keys()].map((name) => [name, `$${name}`])) };
  fs.writeFileSync(path.join(app, "package.json"), JSON.stringify(manifest, null, 2));
  await npm(["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], app, 600_000);
  return app;
}

/** The Hermes compiler React Native ships (the `hermes-compiler` package), for this machine. */
function hermesc(app: string): string {
  const folder = process.platform === "darwin" ? "osx-bin" : process.platform === "win32" ? "win64-bin" : "linux64-bin";
  const file = path.join(app, "node_modules", "hermes-compiler", "hermesc", folder, process.platform === "win32" ? "hermesc.exe" : "hermesc");
  if (!fs.existsSync(file)) throw new Error(`no Hermes compiler at ${file}`);
  return file;
}

/** Compiles `js` to Hermes bytecode as a release build does (`-O`) and answers its size. */
async function bytecodeSize(app: string, js: string): Promise<number> {
  const out = `${js}.hbc`;
  await exec(hermesc(app), ["-emit-binary", "-O", "-out", out, js], app, 300_000);
  return fs.statSync(out).size;
}

/**
 * `npx expo export --platform <platform>` with Expo's default Metro config, as a release build
 * bundles: minified, with source maps. Expo compiles Hermes bytecode by default; the JavaScript
 * the source map describes is kept by exporting with `--no-bytecode`, and compiled here with the
 * same Hermes compiler, so one Metro run gives both.
 */
export async function exportExpo(app: string, platform: "ios" | "android"): Promise<ReleaseBundle> {
  const outDir = path.join(app, "dist", platform);
  await exec("npx", ["expo", "export", "--platform", platform, "--source-maps", "--no-bytecode", "--output-dir", outDir], app, 900_000);
  const folder = path.join(outDir, "_expo", "static", "js", platform);
  const js = fs.readdirSync(folder).find((file) => file.endsWith(".js"));
  if (js === undefined) throw new Error(`expo export wrote no bundle in ${folder}`);
  const file = path.join(folder, js);
  return { platform, js: file, map: `${file}.map`, bytecodeBytes: await bytecodeSize(app, file) };
}

/** `npx react-native bundle` of a bare React Native app, as its release build runs it (`--dev false --minify true`). */
export async function bundleBare(app: string, platform: "ios" | "android"): Promise<ReleaseBundle> {
  const outDir = path.join(app, "dist", platform);
  fs.mkdirSync(outDir, { recursive: true });
  const js = path.join(outDir, `index.${platform}.bundle`);
  await exec(
    "npx",
    ["react-native", "bundle", "--platform", platform, "--dev", "false", "--minify", "true", "--entry-file", "index.js", "--bundle-output", js, "--sourcemap-output", `${js}.map`, "--assets-dest", outDir],
    app,
    900_000,
  );
  return { platform, js, map: `${js}.map`, bytecodeBytes: await bytecodeSize(app, js) };
}

/** Type-checks the installed app with its own TypeScript, as `npx tsc --noEmit` in the app does. */
export async function typecheckExample(app: string): Promise<void> {
  await exec("npx", ["tsc", "--noEmit", "-p", "."], app, 300_000);
}
