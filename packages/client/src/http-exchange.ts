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
