import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { fileURLToPath } from "node:url";

/** The built CLI (`npm test` type-checks, which builds it, before running tests). */
export const CLI = fileURLToPath(new URL("../../packages/server/dist/cli.js", import.meta.url));

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
 * Starts `tidings serve` (or `command`) in a child process on a free port and waits for its banner.
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
    const timer = setTimeout(() => reject(new Error(`server did not start in ${timeoutMs} ms:\n${output}`)), timeoutMs);
    const check = () => {
      const match = /Tidings is listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on("data", check);
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
 */
export async function stopGroup(server: ServerProcess, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  if (server.child.pid !== undefined && server.child.exitCode === null && server.child.signalCode === null) {
    try {
      process.kill(-server.child.pid, signal);
    } catch {
      // Already gone.
    }
  }
  await server.exited;
}
