/**
 * The workspace packages as a registry would hand them out: `npm pack` tarballs of the built
 * packages, for the scratch projects and example apps that install them.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);

/** The repository's root folder: the nearest one above this file with the workspaces' package.json (from the sources or from e2e/dist). */
export const ROOT = (() => {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, "package.json")) || !fs.readFileSync(path.join(dir, "package.json"), "utf8").includes('"workspaces"')) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error("no workspace root above e2e/src/mobile");
    dir = parent;
  }
  return dir;
})();

/** Runs npm with its update notice off; a failure says what npm printed. */
export async function npm(args: string[], cwd: string, timeoutMs = 180_000): Promise<string> {
  try {
    const { stdout } = await run("npm", args, { cwd, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, npm_config_update_notifier: "false" } });
    return stdout;
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`npm ${args.join(" ")} failed: ${failed.message}\n${failed.stdout ?? ""}\n${failed.stderr ?? ""}`, { cause: error });
  }
}

/**
 * Packs workspace packages into `destination` and answers each package's tarball path. With
 * `ignoreScripts` their prepack (a build) does not run: the caller built them already.
 *
 * @example
 * ```ts
 * const tarballs = await packWorkspaces(["@tidings/client"], dir, true); // Map { "@tidings/client" => ".../tidings-client-0.1.0.tgz" }
 * ```
 */
export async function packWorkspaces(names: readonly string[], destination: string, ignoreScripts: boolean): Promise<Map<string, string>> {
  const args = ["pack", ...names.flatMap((name) => ["-w", name]), "--pack-destination", destination, "--json"];
  const out = await npm(ignoreScripts ? [...args, "--ignore-scripts"] : args, ROOT);
  // Lifecycle scripts print before npm's JSON.
  const packed = JSON.parse(out.slice(out.indexOf("\n[") + 1 || out.indexOf("["))) as { name: string; filename: string }[];
  return new Map(packed.map(({ name, filename }) => [name, path.join(destination, filename)]));
}
