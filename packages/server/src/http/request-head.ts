import type { FastifyInstance } from "fastify";
import { ApiError } from "./errors.js";

/** A body is coming: a non-zero length or chunked framing. */
function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  const length = headers["content-length"];
  return headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

/** Whether a `Content-Encoding` value names any coding besides `identity`. */
function isEncoded(value: string | string[]): boolean {
  return String(value)
    .split(",")
    .some((coding) => {
      const name = coding.trim().toLowerCase();
      return name !== "" && name !== "identity";
    });
}

/**
 * Refuses, before any route runs, the request heads Node's parser lets through but HTTP or the
 * server cannot honour: an HTTP/1.1 request without `Host` (RFC 9112 §3.2 asks for a 400) and a
 * body sent with a `Content-Encoding` (bodies are never decompressed, so it would be read as
 * garbage). Node's own Host check answers with an empty body, so it is turned off in favour of
 * this one.
 *
 * @example
 * ```ts
 * refuseUnusableHeads(app); // POST with Content-Encoding: gzip → 415 unsupported_content_encoding
 * ```
 */
export function refuseUnusableHeads(app: FastifyInstance): void {
  // Callback style: this runs on every request.
  app.addHook("onRequest", (request, _reply, done) => {
    const { headers, raw } = request;
    if (headers.host === undefined && raw.httpVersionMajor === 1 && raw.httpVersionMinor === 1) {
      done(new ApiError("malformed_request", { message: "Malformed HTTP request: an HTTP/1.1 request needs a Host header", headers: { Connection: "close" } }));
      return;
    }
    const encoding = headers["content-encoding"];
    if (encoding !== undefined && isEncoded(encoding) && hasBody(headers)) {
      done(new ApiError("unsupported_content_encoding", { headers: { "Accept-Encoding": "identity" } }));
      return;
    }
    done();
  });
}
