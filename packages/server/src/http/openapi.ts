import { CONSOLE_SESSION_COOKIE, ErrorBodySchema } from "@tidings/protocol";
import type { FastifyInstance, FastifySchema, RouteOptions } from "fastify";

/** Request headers a route reads itself (outside its schema), described once here. */
export const HEADER_DOCS = {
  "X-User-Token": "The end user's opaque token from the host app (1–256 printable ASCII characters); without it the caller is anonymous.",
  "X-User-Hash": "Hex HMAC-SHA256 of `X-User-Token` keyed with the app's signing secret, computed by the host's backend: the user is then identified (401 `invalid_user_hash` when it does not match).",
  "X-SSO-Token": "A JWT the host app signed for the signed-in user (docs/sso.md); when it verifies, the caller is that user whatever `X-User-Token` says.",
  "X-App-Key": "The app key, when the query or body does not name it.",
  "If-None-Match": "The `ETag` of an earlier answer: 304 without a body while it still holds.",
} as const;

/** A header a route can declare in `readsHeaders`. */
export type DocumentedHeader = keyof typeof HEADER_DOCS;

/** The headers that say who the end user is (docs/identifying-users.md). */
export const IDENTITY_HEADERS = ["X-User-Token", "X-User-Hash", "X-SSO-Token"] as const satisfies readonly DocumentedHeader[];

declare module "fastify" {
  interface FastifySchema {
    /** Headers the handler reads itself: documented as optional header parameters, never validated. */
    readsHeaders?: readonly DocumentedHeader[];
    /** The body as documented, one schema per media type, for a route that reads its body itself (multipart, raw bytes). */
    documentedBody?: Record<string, object>;
    /** Answers the route sends itself (pages, downloads): status → description and schema per media type. */
    documentedAnswers?: Record<string, DocumentedAnswer>;
  }
  interface FastifyContextConfig {
    /** Adds to the route's description after {@link describeRoute}'s defaults (documentation only). */
    describe?: (description: RouteDescription) => RouteDescription;
  }
}

/** An answer a route sends itself, as documented. */
export interface DocumentedAnswer {
  description: string;
  content: Record<string, object>;
}

/** An HTML page (a mailed link's interstitial or result). */
export const HTML_PAGE = { "text/html": { type: "string" } } as const;

/** Bytes of any kind (a download, an upload's raw body). */
export const BYTES = { type: "string", format: "binary" } as const;

/** The security schemes operations name. */
export const SECURITY_SCHEMES = {
  bearer: { type: "http", scheme: "bearer", description: "Console API token or TIDINGS_ADMIN_TOKEN" },
  session: { type: "apiKey", in: "cookie", name: CONSOLE_SESSION_COOKIE, description: "The dashboard's session cookie (POST /api/v1/console/auth/login sets it)" },
  csrf: { type: "apiKey", in: "header", name: "X-CSRF-Token", description: "With the session cookie, on writes: the `csrfToken` of GET /api/v1/console/auth/session" },
  uploadSession: { type: "http", scheme: "bearer", description: "The `sessionToken` of POST /api/v1/uploads/sessions" },
  uploadSessionHeader: { type: "apiKey", in: "header", name: "X-Upload-Session-Token", description: "The `sessionToken` of POST /api/v1/uploads/sessions, instead of `Authorization`" },
} as const;

/** Alternatives of schemes, as an operation's `security` lists them. */
export type Security = Partial<Record<keyof typeof SECURITY_SCHEMES, string[]>>[];

/** One route's description, as `@fastify/swagger` hands it to a transform. */
export interface RouteDescription {
  schema: FastifySchema;
  url: string;
}

/** The console's schemes: an API token, or the dashboard's cookie (with the CSRF token on writes). */
export function consoleSecurity(method: string | string[]): Security {
  const safe = [method].flat().every((m) => m === "GET" || m === "HEAD");
  return [{ bearer: [] }, safe ? { session: [] } : { session: [], csrf: [] }];
}

const REQUEST_ID_DOC = {
  type: "string",
  description: "Your id for the request (8–64 of `[A-Za-z0-9._-]`), echoed in the answer's `X-Request-Id` and the logs; a fresh UUID otherwise.",
};

const REFUSAL = { ...ErrorBodySchema, description: "Refused: the error envelope `{error, code?, details?}` (codes in docs/errors.md)" };

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

function objectOf(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
}

/**
 * The description of one route (the `transform` of `@fastify/swagger`; documentation only, the
 * runtime schema is untouched): public unless it names its security, every refusal in the error
 * envelope, the headers it reads as parameters, and a body it reads itself as documented.
 */
export function describeRoute({ schema, url, route }: RouteDescription & { route: { config?: { describe?: (d: RouteDescription) => RouteDescription } } }): RouteDescription {
  if (schema.hide === true) return { schema, url };
  const described = defaults(schema, url);
  return route.config?.describe?.(described) ?? described;
}

function defaults(schema: FastifySchema, url: string): RouteDescription {
  const headers = objectOf(schema.headers);
  const read = Object.fromEntries((schema.readsHeaders ?? []).map((name) => [name, { type: "string", description: HEADER_DOCS[name] }]));
  const { readsHeaders: _read, documentedBody, documentedAnswers, ...rest } = schema;
  const answers = Object.fromEntries(
    Object.entries(documentedAnswers ?? {}).map(([status, answer]) => [
      status,
      { description: answer.description, content: Object.fromEntries(Object.entries(answer.content).map(([type, body]) => [type, { schema: body }])) },
    ]),
  );
  return {
    url,
    schema: {
      ...rest,
      security: schema.security ?? [],
      headers: { type: "object", ...headers, properties: { "X-Request-Id": REQUEST_ID_DOC, ...read, ...objectOf(headers.properties) } },
      response: { ...objectOf(schema.response), ...answers, "4XX": REFUSAL },
      ...(documentedBody === undefined ? {} : { body: { content: Object.fromEntries(Object.entries(documentedBody).map(([type, body]) => [type, { schema: body }])) } }),
    },
  };
}
