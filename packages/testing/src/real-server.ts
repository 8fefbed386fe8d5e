import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { FeedbackClient, memoryStorage, type FeedbackClientOptions, type FetchLike } from "@tidings/client";
import { startServerProcess } from "./server-process.js";

/** The demo app `serve` seeds into an empty database (packages/server/src/demo/seed-demo.ts). */
export const DEMO_APP_KEY = "app_demo";

/**
 * Node's own fetch (undici). The React Native preset's environment is Node's and mocks
 * `InitializeCore`, so the global is Node's; it is passed to clients explicitly all the same, so
 * no polyfill a host test installs (React Native's, jsdom's) can slip in between the screens and
 * the server.
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
 * Starts the real server for component tests (the built CLI's `serve` through
 * `startServerProcess`, as the end-to-end tests start it: a child process on a free loopback port,
 * which keeps the server out of the globals jsdom or React Native's preset install; a fresh SQLite
 * folder, the demo app seeded, an operator token for the console API). Fails with
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
  const adminToken = `real-server-${randomBytes(24).toString("hex")}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tidings-real-server-"));
  const removeData = () => fs.rmSync(dataDir, { recursive: true, force: true });
  const server = await startServerProcess(
    {
      DATA_DIR: dataDir,
      TIDINGS_ADMIN_TOKEN: adminToken,
      // The built-in altcha at its lowest cost, for apps that ask for verification.
      ALTCHA_COST: "1",
      ALTCHA_MAX_COUNTER: "50",
    },
    timeoutMs,
  ).catch((error: unknown) => {
    removeData();
    throw error;
  });
  const baseUrl = server.url.replace(/\/$/, "");
  const stop = async () => {
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill("SIGTERM");
    await server.exited;
    removeData();
  };

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
