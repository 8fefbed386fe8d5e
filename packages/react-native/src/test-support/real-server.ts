import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { FeedbackClient, memoryStorage, type FeedbackClientOptions, type FetchLike } from "@tidings/client";

/**
 * The built CLI, as `npm start` runs it. Jest runs this file as CommonJS through Babel, so the
 * path comes from `__dirname` (no `import.meta`).
 */
export const CLI = path.resolve(__dirname, "..", "..", "..", "server", "dist", "cli.js");

/** The demo app `serve` seeds into an empty database (packages/server/src/demo/seed-demo.ts). */
export const DEMO_APP_KEY = "app_demo";

/**
 * Node's own fetch (undici). The React Native preset's environment is Node's and mocks
 * `InitializeCore`, so the global is Node's; it is passed to clients explicitly all the same, so
 * no polyfill a host test installs can slip in between the screens and the server.
 */
const nodeFetch: FetchLike = (input, init) => globalThis.fetch(input, init);

/** What a test needs to drive the real server: its address, the demo app and the console API. */
export interface RealServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  baseUrl: string;
  /** The demo app's key, workspace and app ids. */
  demo: { appKey: string; workspaceId: string; appId: string };
  /** The operator token (`TIDINGS_ADMIN_TOKEN`) the server was started with. */
  adminToken: string;
  /** A console API call as the operator; answers the parsed JSON body, throws on a non-2xx answer. */
  console: <T = unknown>(method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE", url: string, body?: unknown) => Promise<T>;
  /** A console call under the demo workspace: `ws("GET", "/submissions")` is `GET /workspaces/<demo>/submissions`. */
  ws: <T = unknown>(method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE", url: string, body?: unknown) => Promise<T>;
  /** A client of the demo app over Node's fetch, with a fresh in-memory token store: one end user. */
  client: (options?: Partial<FeedbackClientOptions>) => FeedbackClient;
  /** Stops the server and removes its data folder. */
  close: () => Promise<void>;
}

/**
 * Starts the real server (the built CLI's `serve`, a child process on a free loopback port, a
 * fresh SQLite folder, the demo app seeded, an operator token for the console API). Fails with
 * "run `npm run build`" when the CLI has not been built; the root `npm test` builds it first.
 *
 * @example
 * ```ts
 * const server = await startRealServer();
 * const page = await server.client().listFeatureRequests();
 * await server.close();
 * ```
 */
export async function startRealServer(timeoutMs = 20_000): Promise<RealServer> {
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` (the root \`npm test\` builds it before the tests)`);
  const adminToken = `rn-e2e-${randomBytes(24).toString("hex")}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tidings-react-native-"));
  const child = spawn(process.execPath, [CLI, "serve"], {
    env: {
      PATH: process.env.PATH ?? "",
      HOST: "127.0.0.1",
      PORT: "0",
      LOG_LEVEL: "warn",
      DATA_DIR: dataDir,
      TIDINGS_ADMIN_TOKEN: adminToken,
      // The built-in altcha at its lowest cost, for apps that ask for verification.
      ALTCHA_COST: "1",
      ALTCHA_MAX_COUNTER: "50",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  let baseUrl: string;
  try {
    baseUrl = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the server did not start in ${timeoutMs} ms:\n${output}`)), timeoutMs);
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
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`the server exited before starting:\n${output}`));
      });
    });
  } catch (error) {
    await stop();
    throw error;
  }

  const consoleCall = async <T,>(method: string, url: string, body?: unknown): Promise<T> => {
    const res = await nodeFetch(`${baseUrl}/api/v1/console${url}`, {
      method,
      headers: { authorization: `Bearer ${adminToken}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`console ${method} ${url}: ${res.status} ${text}`);
    return (text === "" ? undefined : JSON.parse(text)) as T;
  };

  try {
    const me = await consoleCall<{ workspaces: { workspace: { id: string; slug: string } }[] }>("GET", "/me");
    const workspaceId = me.workspaces.find((w) => w.workspace.slug === "demo")?.workspace.id;
    if (workspaceId === undefined) throw new Error("the server seeded no demo workspace");
    const apps = await consoleCall<{ apps: { appId: string; appKey: string }[] }>("GET", `/workspaces/${workspaceId}/apps`);
    const appId = apps.apps.find((a) => a.appKey === DEMO_APP_KEY)?.appId;
    if (appId === undefined) throw new Error(`the demo workspace has no app ${DEMO_APP_KEY}`);
    return {
      baseUrl,
      demo: { appKey: DEMO_APP_KEY, workspaceId, appId },
      adminToken,
      console: consoleCall,
      ws: (method, url, body) => consoleCall(method, `/workspaces/${workspaceId}${url}`, body),
      client: (options = {}) =>
        new FeedbackClient({ baseUrl, appKey: DEMO_APP_KEY, fetch: nodeFetch, storage: memoryStorage(), warn: () => undefined, ...options }),
      close: stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
