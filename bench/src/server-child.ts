/**
 * `tidings serve` in a child process, for benchmarks that read the server's own memory: its RSS
 * is the child's, not the load generator's or the seeder's. Linux only for the memory figures
 * (read from /proc). BENCH_SERVER_NODE_ARGS (e.g. `--max-semi-space-size=32`) is passed to the
 * server's `node`, to measure a runtime option an operator may start it with.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { DEFAULT_RATE_LIMITS } from "@tidings/server";

const CLI = fileURLToPath(new URL("../../packages/server/dist/cli.js", import.meta.url));
const NODE_ARGS = (process.env.BENCH_SERVER_NODE_ARGS ?? "").split(/\s+/).filter((arg) => arg !== "");

export interface ServerChild {
  url: string;
  child: ChildProcess;
  /** Resident memory now and at its peak, in bytes. */
  memory(): Promise<{ rss: number; peak: number }>;
  stop(): Promise<void>;
}

/**
 * Starts the built CLI on a loopback port with `env` (DATABASE_URL or DATA_DIR) and every per-IP
 * budget lifted, since one IP sends the whole load; resolves once it listens.
 *
 * @example
 * ```ts
 * const server = await startServerChild({ DATA_DIR: dir });
 * console.log((await server.memory()).rss);
 * await server.stop();
 * ```
 */
export async function startServerChild(env: Record<string, string>, timeoutMs = 60_000): Promise<ServerChild> {
  const unlimited = Object.fromEntries(Object.keys(DEFAULT_RATE_LIMITS).map((bucket) => [`TIDINGS_RATE_LIMIT_${bucket.toUpperCase()}`, "1000000000/60"]));
  const child = spawn(process.execPath, [...NODE_ARGS, CLI, "serve"], {
    env: { PATH: process.env.PATH ?? "", HOST: "127.0.0.1", PORT: "0", LOG_LEVEL: "warn", TIDINGS_DEMO: "0", ...unlimited, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGTERM");
      reject(new Error(`server did not start in ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const check = () => {
      const match = /Tidings is listening on (http:\/\/\S+)/.exec(output);
      if (match === null) return;
      clearTimeout(timer);
      resolve(match[1]!);
    };
    child.stdout.on("data", check);
    child.stderr.on("data", check);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`server exited before starting:\n${output}`));
    });
  });
  return {
    url,
    child,
    memory: async () => {
      const status = await readFile(`/proc/${child.pid}/status`, "utf8");
      const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN) * 1024;
      return { rss: kb("VmRSS"), peak: kb("VmHWM") };
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
