import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildApp, loadConfig } from "@tidings/server";

export const ADMIN_TOKEN = "e2e-client-admin-token-0123456789";

/** Built-in altcha at the lowest cost, so solving a challenge takes milliseconds. */
const CHEAP_ALTCHA = { ALTCHA_COST: "1", ALTCHA_MAX_COUNTER: "50" };

/** Where a restarted server picks up: its SQLite folder (kept on close) and its port. */
export interface RealServerPlace {
  dataDir?: string;
  port?: number;
}

/**
 * The real server, in process on a loopback port (free unless `place.port`), over a fresh SQLite
 * folder or `place.dataDir`, which survives `close()` so another server can start over it.
 */
export async function startRealServer(env: Record<string, string> = {}, place: RealServerPlace = {}) {
  const dataDir = place.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "tidings-client-e2e-"));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent", ...CHEAP_ALTCHA, ...env });
  const app = await buildApp({ ...config, adminToken: ADMIN_TOKEN }, { logger: false });
  await app.listen({ port: place.port ?? 0, host: "127.0.0.1" });
  const address = app.server.address();
  if (address === null || typeof address === "string") throw new Error("no TCP address");
  const baseUrl = `http://127.0.0.1:${address.port}`;

  /** A console call with the operator token. */
  const consoleCall = async (method: string, url: string, body?: unknown) => {
    const res = await fetch(`${baseUrl}/api/v1/console${url}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`console ${method} ${url}: ${res.status} ${text}`);
    return (text === "" ? undefined : JSON.parse(text)) as Record<string, unknown> & { [key: string]: never };
  };

  /** A new workspace with one app, for tests that change settings. */
  const createApp = async (slug: string) => {
    const ws = (await consoleCall("POST", "/workspaces", { name: slug, slug })) as unknown as { workspace: { id: string } };
    const wsId = ws.workspace.id;
    const app = (await consoleCall("POST", `/workspaces/${wsId}/apps`, { name: `${slug} app` })) as unknown as {
      appId: string;
      appKey: string;
      signingSecret: string;
    };
    return {
      wsId,
      appId: app.appId,
      appKey: app.appKey,
      signingSecret: app.signingSecret,
      settings: (body: unknown) => consoleCall("PUT", `/workspaces/${wsId}/apps/${app.appId}/settings`, body),
      workspace: (body: unknown) => consoleCall("PUT", `/workspaces/${wsId}`, body),
    };
  };

  return {
    baseUrl,
    port: address.port,
    dataDir,
    consoleCall,
    createApp,
    close: async () => {
      await app.close();
      if (place.dataDir === undefined) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type RealServer = Awaited<ReturnType<typeof startRealServer>>;
