/**
 * The one registry of stable error codes. Server, SDK and docs (docs/errors.md) all read from
 * here; `errors.test.ts` fails when they drift.
 */
export interface ErrorDefinition {
  /** HTTP status the server answers with. */
  readonly status: number;
  /** Default human-readable message placed in the envelope's `error` field. */
  readonly message: string;
  /** What happened, for the docs table. */
  readonly meaning: string;
  /** How a caller fixes it, for the docs table. */
  readonly fix: string;
}

/**
 * Every machine code the API can answer with.
 *
 * @example
 * ```ts
 * ErrorCodes.validation_failed.status; // 400
 * ```
 */
export const ErrorCodes = {
  validation_failed: {
    status: 400,
    message: "Validation failed",
    meaning: "A body, query, path or header value does not match the route's schema.",
    fix: "Read `details.fieldErrors` and correct the named fields.",
  },
  invalid_json: {
    status: 400,
    message: "Request body is not valid JSON",
    meaning: "The body could not be parsed as JSON.",
    fix: "Send a well-formed JSON document.",
  },
  invalid_content_length: {
    status: 400,
    message: "Invalid Content-Length header",
    meaning: "The Content-Length header is malformed or does not match the body.",
    fix: "Let your HTTP client compute Content-Length.",
  },
  invalid_user_token: {
    status: 400,
    message: "X-User-Token must be 1 to 256 printable characters",
    meaning: "The end-user token is empty, too long or holds control characters.",
    fix: "Send the SDK's stored token (a UUID) or your own user id.",
  },
  invalid_user_hash: {
    status: 401,
    message: "X-User-Hash does not match X-User-Token",
    meaning: "An identity hash was sent but is not HMAC-SHA256(signing secret, token).",
    fix: "Compute the hash on your backend with the app's current signing secret.",
  },
  authentication_required: {
    status: 401,
    message: "Sign in is required for this surface",
    meaning: "The app does not allow anonymous access to this surface.",
    fix: "Send X-User-Token with a valid X-User-Hash, or enable the anonymous flag.",
  },
  unauthorized: {
    status: 401,
    message: "Authentication required",
    meaning: "The console API needs a valid `Authorization: Bearer` token.",
    fix: "Create an API token, or use TIDINGS_ADMIN_TOKEN for first setup.",
  },
  capability_required: {
    status: 403,
    message: "Your role does not allow this action",
    meaning: "The caller's workspace role lacks the capability the route needs.",
    fix: "Ask a workspace owner or admin to do it, or to change your role.",
  },
  public_access_disabled: {
    status: 403,
    message: "Public surfaces are disabled for this app",
    meaning: "The app is private (`allowPublic` is false).",
    fix: "Turn on `allowPublic` in the app's settings.",
  },
  not_found: {
    status: 404,
    message: "Not found",
    meaning: "No route matches the method and path.",
    fix: "Check the path against /api/v1/openapi.json.",
  },
  app_not_found: {
    status: 404,
    message: "App not found",
    meaning: "The app key or id is unknown, or (on the config endpoint) the app is private.",
    fix: "Check the app key in the console.",
  },
  workspace_not_found: {
    status: 404,
    message: "Workspace not found",
    meaning: "The workspace does not exist or the caller is not a member.",
    fix: "List your workspaces with GET /api/v1/console/me.",
  },
  column_not_found: {
    status: 404,
    message: "Column not found",
    meaning: "The column does not exist in this workspace.",
    fix: "List the app's columns first.",
  },
  version_not_found: {
    status: 404,
    message: "Version not found",
    meaning: "The version does not exist in this workspace.",
    fix: "List the app's versions first.",
  },
  user_not_found: {
    status: 404,
    message: "User not found",
    meaning: "The console user does not exist.",
    fix: "Add the user as a workspace member first.",
  },
  member_not_found: {
    status: 404,
    message: "Member not found",
    meaning: "The membership does not exist in this workspace.",
    fix: "List the workspace's members first.",
  },
  slug_taken: {
    status: 409,
    message: "That slug is already in use",
    meaning: "Another workspace, app or column already uses the slug.",
    fix: "Choose another slug.",
  },
  system_column: {
    status: 400,
    message: "System columns cannot be deleted",
    meaning: "The review and done columns are required by moderation and shipping.",
    fix: "Hide or rename the column instead.",
  },
  invalid_column_order: {
    status: 400,
    message: "The order must list every column of the app exactly once",
    meaning: "A reorder request omitted, repeated or added column ids.",
    fix: "Send all of the app's column ids in the new order.",
  },
  last_owner: {
    status: 400,
    message: "A workspace needs at least one owner",
    meaning: "The change would leave the workspace without an owner.",
    fix: "Make another member owner first.",
  },
  invalid_text: {
    status: 400,
    message: "Text must not contain NUL characters",
    meaning: "A JSON string holds the NUL character (\\u0000), which no column stores.",
    fix: "Remove NUL characters from the text.",
  },
  payload_too_large: {
    status: 413,
    message: "Payload exceeds size limit",
    meaning: "The body is larger than the route accepts (256 KB public, 1 MB console).",
    fix: "Send less data; upload files through the upload endpoints.",
  },
  uri_too_long: {
    status: 414,
    message: "URI too long",
    meaning: "The path or one of its segments is longer than the server accepts.",
    fix: "Check the ids and keys in the URL.",
  },
  unsupported_media_type: {
    status: 415,
    message: "Unsupported Content-Type",
    meaning: "The body's Content-Type is not one the route accepts.",
    fix: "Send `Content-Type: application/json`.",
  },
  rate_limited: {
    status: 429,
    message: "Too many requests. Please try again shortly.",
    meaning: "The client exceeded a rate limit.",
    fix: "Wait for the number of seconds in `Retry-After`.",
  },
  internal_error: {
    status: 500,
    message: "Internal server error",
    meaning: "An unexpected server fault; the request id is in the logs.",
    fix: "Retry; report the X-Request-Id if it persists.",
  },
  service_unavailable: {
    status: 503,
    message: "Service unavailable",
    meaning: "The server is starting, shutting down or cannot reach its database.",
    fix: "Retry shortly.",
  },
} as const satisfies Record<string, ErrorDefinition>;

/** A stable machine code from the registry. */
export type ErrorCode = keyof typeof ErrorCodes;

/** The error envelope every non-2xx JSON answer carries. */
export interface ErrorBody {
  error: string;
  code?: ErrorCode;
  details?: unknown;
}

/** Field-level validation details (the shape of zod's `flatten()`, read by existing SDKs). */
export interface ValidationDetails {
  formErrors: string[];
  fieldErrors: Record<string, string[]>;
}

/** True when `code` names a registry entry. */
export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === "string" && Object.hasOwn(ErrorCodes, code);
}
