import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyReply } from "fastify";
import { ApiError } from "../http/errors.js";
import type { App } from "../http/types.js";

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
};

/**
 * The dashboard's policy: everything from this origin only (attachments are previewed through
 * same-origin signed links; `blob:`/`data:` for local image previews), no inline script or style,
 * no framing.
 */
export const DASHBOARD_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; font-src 'self'; " +
  "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/**
 * Where the built dashboard is: the copy a packed `@tidings/server` carries in `dist/public/dashboard`
 * (see scripts/bundle-assets.mjs), else `packages/dashboard/dist/public` next to this package in a checkout.
 */
export function defaultDashboardDir(): string {
  const bundled = fileURLToPath(new URL("../public/dashboard", import.meta.url));
  if (fs.existsSync(path.join(bundled, "index.html"))) return bundled;
  return fileURLToPath(new URL("../../../dashboard/dist/public", import.meta.url));
}

function dashboardHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header("Content-Security-Policy", DASHBOARD_CSP)
    .header("Referrer-Policy", "no-referrer")
    .header("X-Frame-Options", "DENY")
    .header("Cache-Control", "no-cache");
}

/**
 * Serves the admin SPA at `/admin/`: files from `dir` with their content types, and
 * `index.html` for every other path (client-side routes). When the dashboard is not built the
 * page says so instead of failing.
 *
 * @example
 * ```ts
 * dashboardRoutes(app, defaultDashboardDir());
 * ```
 */
export function dashboardRoutes(app: App, dir: string): void {
  const root = path.resolve(dir);
  const sendFile = async (reply: FastifyReply, file: string) => {
    const body = await fs.promises.readFile(file);
    return dashboardHeaders(reply)
      .type(CONTENT_TYPES[path.extname(file)] ?? "application/octet-stream")
      .send(body);
  };
  const sendIndex = async (reply: FastifyReply) => {
    const index = path.join(root, "index.html");
    if (!fs.existsSync(index)) {
      return dashboardHeaders(reply)
        .code(503)
        .type("text/plain; charset=utf-8")
        .send("The dashboard is not built. Run `npm run build` at the repository root.");
    }
    return sendFile(reply, index);
  };

  app.get("/admin", { schema: { hide: true } }, (_request, reply) => reply.redirect("/admin/"));
  app.get("/admin/*", { schema: { hide: true } }, async (request, reply) => {
    const rest = (request.params as { "*": string })["*"];
    if (path.extname(rest) === "") return sendIndex(reply);
    const file = path.resolve(root, rest);
    // Anything outside the folder, hidden, or missing is a 404 not_found (no index fallback for assets).
    if (!file.startsWith(root + path.sep) || rest.split("/").some((part) => part.startsWith(".")) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      throw new ApiError("not_found");
    }
    return sendFile(reply, file);
  });
}
