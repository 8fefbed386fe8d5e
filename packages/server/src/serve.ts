import { buildApp } from "./app.js";
import type { Config } from "./config.js";
import { DEMO_APP_KEY } from "./demo/seed-demo.js";
import type { App } from "./http/types.js";

/** A listening server and how to stop it. */
export interface RunningServer {
  app: App;
  /** The origin it listens on, e.g. `http://127.0.0.1:8787`. */
  url: string;
  /** Stops accepting connections, lets in-flight requests finish, closes the database. */
  close(): Promise<void>;
}

/**
 * Builds the app and listens on `config.host:config.port` (port 0 picks a free one).
 *
 * @example
 * ```ts
 * const server = await startServer(loadConfig());
 * console.log(server.url);
 * await server.close();
 * ```
 */
export async function startServer(config: Config): Promise<RunningServer> {
  const app = await buildApp(config);
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === "object" && address !== null ? address.port : config.port;
  const host = config.host === "0.0.0.0" || config.host === "::" ? "localhost" : config.host;
  return { app, url: `http://${host}:${port}`, close: () => app.close() };
}

/** The lines printed when the server is up: where the API, the demo app and the docs are. */
export function banner(config: Config, url: string, hasDemo: boolean): string {
  const base = config.publicUrl ?? url;
  const lines = [
    `Tidings is listening on ${url}`,
    `  API base URL:   ${base}/api/v1`,
    `  API docs:       ${base}/docs  (OpenAPI: ${base}/api/v1/openapi.json)`,
    `  Dashboard:      ${base}/admin/  (the first visit creates the owner account)`,
  ];
  if (hasDemo) {
    lines.push(`  Demo app key:   ${DEMO_APP_KEY}  (try ${base}/api/v1/public/config/${DEMO_APP_KEY})`);
    lines.push(`  Demo portal:    ${base}/p/${DEMO_APP_KEY}`);
  }
  lines.push(
    config.adminToken === null
      ? "  Console API:    set TIDINGS_ADMIN_TOKEN to use /api/v1/console"
      : `  Console API:    ${base}/api/v1/console (Authorization: Bearer $TIDINGS_ADMIN_TOKEN)`,
  );
  lines.push(`  Data:           ${config.databaseUrl.startsWith("sqlite:") ? config.databaseUrl.slice(7) : "PostgreSQL"}`);
  return lines.join("\n");
}
