import { buildApp } from "./app.js";
import type { Config } from "./config.js";
import { setupCode, setupLink, setupRequired } from "./console/setup-code.js";
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

/** What the banner says about first-run setup: done, or open with the code to print (null when it comes from the environment). */
export type SetupState = { open: false } | { open: true; code: string | null };

/**
 * The first-run setup of a running server: open while no console user has a password; the code
 * is printed only when the server made it (an operator's `TIDINGS_SETUP_CODE` stays out of logs).
 *
 * @example
 * ```ts
 * const setup = await setupState(server.app);
 * if (setup.open && setup.code !== null) console.log(setupLink(server.url, setup.code));
 * ```
 */
export async function setupState(app: App): Promise<SetupState> {
  if (!(await setupRequired(app.ctx.db.kysely))) return { open: false };
  return { open: true, code: app.ctx.config.setupCode === null ? await setupCode(app.ctx) : null };
}

/** The dashboard line of the banner. */
function dashboardLine(base: string, setup: SetupState): string {
  if (!setup.open) return `  Dashboard:      ${base}/admin/`;
  if (setup.code === null) return `  Dashboard:      ${base}/admin/  (first-run setup asks for the code in TIDINGS_SETUP_CODE)`;
  return `  Dashboard:      ${setupLink(base, setup.code)}  (creates the owner account; setup code ${setup.code})`;
}

/** The lines printed when the server is up: where the API, the dashboard, the demo app and the docs are. */
export function banner(config: Config, url: string, options: { hasDemo: boolean; setup: SetupState }): string {
  const base = config.publicUrl ?? url;
  const lines = [
    `Tidings is listening on ${url}`,
    `  API base URL:   ${base}/api/v1`,
    `  API docs:       ${base}/docs  (OpenAPI: ${base}/api/v1/openapi.json)`,
    dashboardLine(base, options.setup),
  ];
  const { hasDemo } = options;
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
