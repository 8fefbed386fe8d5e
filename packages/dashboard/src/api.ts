/** A failed console call: status, registry code, and the server's field errors when it sent some. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    message: string,
    readonly fieldErrors: Readonly<Record<string, readonly string[]>> = {},
  ) {
    super(message);
    this.name = "ApiFailure";
  }
}

let csrfToken: string | null = null;
let sessionLost: () => void = () => {};

/** The session's CSRF token, sent as `X-CSRF-Token` on every write. */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** Called when a console call answers 401: the session ended (expired, signed out elsewhere). */
export function onSessionLost(handler: () => void): void {
  sessionLost = handler;
}

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * The one HTTP path of the dashboard: same-origin JSON calls to the console API with the session
 * cookie and CSRF token. Throws {@link ApiFailure}.
 *
 * @example
 * ```ts
 * const { apps } = await api<{ apps: AppRecord[] }>("GET", `/workspaces/${wsId}/apps`);
 * ```
 */
export async function api<T>(method: Method, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers["content-type"] = "application/json";
  if (method !== "GET" && csrfToken !== null) headers["x-csrf-token"] = csrfToken;
  let res: Response;
  try {
    res = await fetch(`/api/v1/console${path}`, {
      method,
      credentials: "same-origin",
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    throw new ApiFailure(0, undefined, "The server could not be reached. Check your connection and try again.");
  }
  const text = await res.text();
  let json: unknown;
  try {
    json = text === "" ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (!res.ok) {
    // Only what has the envelope's shape is believed: a proxy's or a stranger's JSON must not become UI it cannot render.
    const envelope = (typeof json === "object" && json !== null ? json : {}) as { error?: unknown; code?: unknown; details?: { fieldErrors?: unknown } | null };
    if (res.status === 401 && !path.startsWith("/auth/")) sessionLost();
    const message = typeof envelope.error === "string" ? envelope.error : `Request failed (${res.status})`;
    throw new ApiFailure(res.status, typeof envelope.code === "string" ? envelope.code : undefined, message, fieldErrorsOf(envelope.details?.fieldErrors));
  }
  return json as T;
}

/** `details.fieldErrors` when it is a map of string lists; any other shape counts as none. */
function fieldErrorsOf(value: unknown): Record<string, readonly string[]> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return {};
  const out: Record<string, readonly string[]> = {};
  for (const [field, messages] of Object.entries(value)) {
    if (Array.isArray(messages)) out[field] = messages.filter((m): m is string => typeof m === "string");
  }
  return out;
}
