import type { FastifyInstance, FastifySchema, RouteOptions } from "fastify";

/**
 * `getConsoleWorkspacesByWsIdApps` for `GET /api/v1/console/workspaces/:wsId/apps`: the method,
 * then each path segment (a parameter as `By<Name>`), without the `/api/v1` prefix.
 *
 * @example
 * ```ts
 * operationIdOf("DELETE", "/api/v1/feature-requests/:id/vote"); // "deleteFeatureRequestsByIdVote"
 * ```
 */
export function operationIdOf(method: string, url: string): string {
  const pascal = (text: string) => text.split(/[^A-Za-z0-9]+/).filter(Boolean).map((w) => w[0]!.toUpperCase() + w.slice(1)).join("");
  const segments = url
    .replace(/^\/api\/v1(?=\/|$)/, "")
    .split("/")
    .filter(Boolean)
    .map((segment) => (segment.startsWith(":") ? `By${pascal(segment.slice(1))}` : pascal(segment)));
  return method.toLowerCase() + segments.join("");
}

/** The media types the route's scope parses besides JSON, as the body's documented encodings. */
function bodyEncodings(scope: FastifyInstance): string[] {
  return ["application/json", "application/x-www-form-urlencoded", "multipart/form-data"].filter((type) => scope.hasContentTypeParser(type));
}

/**
 * Holds every documented route (not `hide`) to the API description's rules as it is declared:
 * a `summary` is required (registration throws without one), the `operationId` is derived from
 * method and path unless given (and must be unique), and a body lists every encoding its scope
 * parses. Register on the root instance before any route.
 *
 * @example
 * ```ts
 * requireRouteDocs(app);
 * app.get("/api/v1/ping", { schema: { summary: "Ping" } }, () => "pong"); // operationId "getPing"
 * ```
 */
export function requireRouteDocs(app: FastifyInstance): void {
  const taken = new Set<string>();
  app.addHook("onRoute", function (this: FastifyInstance, route: RouteOptions) {
    const schema: FastifySchema | undefined = route.schema;
    if (schema === undefined || schema.hide === true) return;
    const method = [route.method].flat()[0] ?? "GET";
    if (typeof schema.summary !== "string" || schema.summary.trim() === "") throw new Error(`${method} ${route.url} needs an OpenAPI summary`);
    const operationId = schema.operationId ?? operationIdOf(method, route.url);
    if (taken.has(operationId)) throw new Error(`${method} ${route.url}: operationId ${operationId} is taken`);
    taken.add(operationId);
    const consumes = schema.body !== undefined && schema.consumes === undefined ? { consumes: bodyEncodings(this) } : {};
    route.schema = { ...schema, operationId, ...consumes };
  });
}
