import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/**
 * The checkout's root: the nearest folder at or above the working directory that holds
 * `packages/server`. The path cannot come from this module's own location: Vitest loads it as an
 * ES module (no `__dirname`) and the React Native Jest suites through Babel as CommonJS (no
 * `import.meta`); both run from inside the checkout.
 */
function checkoutRoot(): string {
  for (let dir = process.cwd(); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, "packages", "server", "package.json"))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no Tidings checkout at or above ${process.cwd()}`);
  }
}

/** The built CLI, as `npm start` runs it (`npm test` type-checks, which builds it, before running tests). */
export const CLI = path.join(checkoutRoot(), "packages", "server", "dist", "cli.js");

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  output: () => string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
}

/** What to run instead of the workspace's built CLI (an installed package through npx, say). */
export interface ServerCommand {
  file: string;
  args: string[];
  cwd: string;
}

/**
 * Starts `tidings serve` (or `command`) in a child process on a free loopback port and waits for
 * its banner. The child's environment is `env` over a bare minimum (PATH, host, port 0, warnings
 * only), so nothing from the test process leaks into the server's configuration. A server that
 * does not start in `timeoutMs` is stopped and the promise rejects with what it printed.
 *
 * @example
 * ```ts
 * const server = await startServerProcess({ DATA_DIR: dataDir });
 * await fetch(`${server.url}/api/v1/public/config/app_demo`);
 * server.child.kill("SIGTERM");
 * await server.exited;
 * ```
 */
export async function startServerProcess(env: Record<string, string>, timeoutMs = 20_000, command?: ServerCommand): Promise<ServerProcess> {
  if (command === undefined && !fs.existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` (npm test does it first)`);
  const child = spawn(command?.file ?? process.execPath, command?.args ?? [CLI, "serve"], {
    env: { PATH: process.env.PATH ?? "", HOST: "127.0.0.1", PORT: "0", LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    // A command such as npx starts the server as a child of its own: in a process group of their
    // own, both can be stopped together (`stopGroup`).
    ...(command === undefined ? {} : { cwd: command.cwd, detached: true }),
  });
  let output = "";
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`server did not start in ${timeoutMs} ms:\n${output}`));
      if (command === undefined) child.kill("SIGTERM");
      else signalGroup(child, "SIGTERM");
    }, timeoutMs);
    const check = () => {
      const match = /Tidings is listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on("data", check);
    child.stderr!.on("data", check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before starting:\n${output}`));
    });
  });
  return { child, url, output: () => output, exited };
}

/**
 * Stops a server started with a `command` and every process of its group: signalling npx alone
 * leaves the server it started running after the test.
 *
 * @example
 * ```ts
 * await stopGroup(server);
 * ```
 */
export async function stopGroup(server: ServerProcess, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  signalGroup(server.child, signal);
  await server.exited;
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
    try {
      process.kill(-child.pid, signal);
    } catch {
      // Already gone.
    }
  }
}
