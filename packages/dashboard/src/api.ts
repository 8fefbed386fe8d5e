/** A failed console call: status, registry code, the server's field errors when it sent some, and its raw `details` (e.g. what still uses a segment). */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    message: string,
    readonly fieldErrors: Readonly<Record<string, readonly string[]>> = {},
    readonly details: unknown = undefined,
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
  if (!res.ok) throw failureOf(res.status, json, path);
  return json as T;
}

/** The {@link ApiFailure} of a non-2xx answer (and the session-lost signal on a 401). */
function failureOf(status: number, json: unknown, path: string): ApiFailure {
  // Only what has the envelope's shape is believed: a proxy's or a stranger's JSON must not become UI it cannot render.
  const envelope = (typeof json === "object" && json !== null ? json : {}) as { error?: unknown; code?: unknown; details?: { fieldErrors?: unknown } | null };
  if (status === 401 && !path.startsWith("/auth/")) sessionLost();
  const message = typeof envelope.error === "string" ? envelope.error : `Request failed (${status})`;
  return new ApiFailure(status, typeof envelope.code === "string" ? envelope.code : undefined, message, fieldErrorsOf(envelope.details?.fieldErrors), envelope.details ?? undefined);
}

/**
 * Sends a file as the raw body of a console POST, reporting the bytes sent as they go (fetch
 * cannot, so this one path uses XMLHttpRequest). Same cookie, CSRF token and errors as {@link api}.
 *
 * @example
 * ```ts
 * const summary = await upload<ImportSummary>(`/workspaces/${wsId}/import`, file, "application/x-ndjson", (sent, total) => setProgress(sent / total));
 * ```
 */
export function upload<T>(path: string, file: Blob, contentType: string, onProgress: (sent: number, total: number) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `/api/v1/console${path}`);
    xhr.withCredentials = true;
    xhr.setRequestHeader("content-type", contentType);
    if (csrfToken !== null) xhr.setRequestHeader("x-csrf-token", csrfToken);
    xhr.upload.onprogress = (event) => onProgress(event.loaded, event.lengthComputable ? event.total : file.size);
    xhr.onerror = () => reject(new ApiFailure(0, undefined, "The server could not be reached. Check your connection and try again."));
    xhr.onload = () => {
      let json: unknown;
      try {
        json = xhr.responseText === "" ? undefined : JSON.parse(xhr.responseText);
      } catch {
        json = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(json as T);
      else reject(failureOf(xhr.status, json, path));
    };
    xhr.send(file);
  });
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
