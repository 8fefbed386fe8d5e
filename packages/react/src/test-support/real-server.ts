import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const CLI = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "server", "dist", "cli.js");

/**
 * The real server (the built CLI, as `npm start` runs it) in a child process on a free loopback
 * port over a fresh SQLite folder with the demo app. A child process keeps the server out of the
 * jsdom globals these component tests run under.
 */
export async function startRealServer(timeoutMs = 20_000) {
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\``);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tidings-react-"));
  const child = spawn(process.execPath, [CLI, "serve"], {
    env: { PATH: process.env.PATH ?? "", HOST: "127.0.0.1", PORT: "0", LOG_LEVEL: "warn", DATA_DIR: dataDir },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), timeoutMs);
    const onData = (data: Buffer) => {
      output += data.toString();
      const match = /Tidings is listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!.replace(/\/$/, ""));
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    void exited.then(() => reject(new Error(`server exited before starting:\n${output}`)));
  });
  return {
    baseUrl,
    close: async () => {
      child.kill("SIGTERM");
      await exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
