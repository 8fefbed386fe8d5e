import { CONSOLE_SESSION_COOKIE } from "@tidings/protocol";
import type { FastifySchema } from "fastify";

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
