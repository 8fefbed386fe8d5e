import { errorFromResponse } from "./error-responses.js";
import {
  AbortError,
  FeedbackException,
  InvalidResponseException,
  NetworkException,
  RequestTimeoutException,
} from "./errors.js";
import type { Timers } from "./timers.js";

/** The `fetch` the SDK calls: the global one, or any compatible implementation. */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** One HTTP exchange. */
export interface HttpRequest {
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** Path below the base URL, starting with `/`. */
  path: string;
  /** Query parameters; a list repeats its name once per item (`tag=a&tag=b`). */
  query?: Record<string, string | number | readonly string[] | undefined> | undefined;
  headers?: Record<string, string | undefined> | undefined;
  /** A JSON body. */
  json?: unknown;
  /** A multipart body (uploads); the runtime sets its Content-Type with the boundary. */
  form?: FormData | undefined;
  signal?: AbortSignal | undefined;
  /** Budget for the whole exchange, body read included. */
  timeoutMs: number;
  /** When false, an empty 2xx body is an {@link InvalidResponseException} instead of `{}`. */
  allowEmptyBody?: boolean | undefined;
}

/** A successful answer with its parsed JSON body. */
export interface HttpResponse<T> {
  data: T;
  status: number;
  headers: Headers;
  requestId: string | undefined;
}

/** What the request path needs from the client. */
export interface TransportConfig {
  baseUrl: string;
  fetch: FetchLike;
  timers: Timers;
}

/** Rejects when `signal` aborts, so a fetch that ignores its signal still stops waiting. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

function buildUrl(baseUrl: string, path: string, query: HttpRequest["query"]): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined) continue;
    for (const one of typeof value === "object" ? value : [value]) params.append(name, String(one));
  }
  const search = params.toString();
  return `${baseUrl}${path}${search === "" ? "" : `?${search}`}`;
}

/**
 * The SDK's only HTTP path: merges the caller's signal with the time budget, maps statuses to the
 * error classes and clears its timer in `finally`. Caller abort → {@link AbortError}; budget spent
 * → {@link RequestTimeoutException}; no answer → {@link NetworkException}.
 *
 * @example
 * ```ts
 * const send = createTransport({ baseUrl, fetch, timers: systemTimers });
 * const { data } = await send<{ columns: unknown[] }>({ method: "GET", path: "/api/v1/public/columns/app_x", timeoutMs: 15_000 });
 * ```
 */
export function createTransport(config: TransportConfig) {
  return async function send<T>(request: HttpRequest): Promise<HttpResponse<T>> {
    const callerSignal = request.signal;
    if (callerSignal?.aborted) throw new AbortError(callerSignal.reason);
    const controller = new AbortController();
    let timedOut = false;
    const onCallerAbort = () => controller.abort(callerSignal?.reason);
    callerSignal?.addEventListener("abort", onCallerAbort, { once: true });
    const timer = config.timers.setTimeout(() => {
      timedOut = true;
      controller.abort(new RequestTimeoutException(request.timeoutMs));
    }, request.timeoutMs);

    const headers: Record<string, string> = { Accept: "application/json" };
    let body: BodyInit | undefined;
    if (request.form !== undefined) body = request.form;
    else if (request.json !== undefined) {
      headers["Content-Type"] = "application/json";
      body = JSON.stringify(request.json);
    }
    for (const [name, value] of Object.entries(request.headers ?? {})) if (value !== undefined) headers[name] = value;

    try {
      let response: Response;
      let rawBody: string;
      try {
        const init: RequestInit = { method: request.method, headers, signal: controller.signal };
        if (body !== undefined) init.body = body;
        response = await untilAborted(config.fetch(buildUrl(config.baseUrl, request.path, request.query), init), controller.signal);
        rawBody = await untilAborted(response.text(), controller.signal);
      } catch (error) {
        if (timedOut) throw new RequestTimeoutException(request.timeoutMs);
        if (callerSignal?.aborted) throw new AbortError(callerSignal.reason);
        if (error instanceof FeedbackException) throw error;
        throw new NetworkException("Network request failed", { cause: error });
      }
      const requestId = response.headers.get("x-request-id") ?? undefined;
      if (response.status < 200 || response.status > 299) {
        throw errorFromResponse({
          status: response.status,
          rawBody,
          requestId,
          retryAfter: response.headers.get("retry-after"),
          nowMs: config.timers.now(),
        });
      }
      let data: unknown = {};
      if (rawBody.trim() === "") {
        if (request.allowEmptyBody === false) {
          throw new InvalidResponseException("The server answered with an empty body", { status: response.status, requestId, rawBody });
        }
      } else {
        try {
          data = JSON.parse(rawBody);
        } catch (error) {
          throw new InvalidResponseException("The server answered with a body that is not JSON", {
            status: response.status,
            requestId,
            rawBody,
            cause: error,
          });
        }
      }
      return { data: data as T, status: response.status, headers: response.headers, requestId };
    } finally {
      config.timers.clearTimeout(timer);
      callerSignal?.removeEventListener("abort", onCallerAbort);
    }
  };
}

/** The function {@link createTransport} returns. */
export type Transport = ReturnType<typeof createTransport>;
