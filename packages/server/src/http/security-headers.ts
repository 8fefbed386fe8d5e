import type { FastifyInstance } from "fastify";

/**
 * Security headers for API answers (the OWASP REST set that matters for JSON). JSON is never
 * rendered, so nosniff plus a CSP that forbids everything, framing included, covers what
 * helmet's dozen headers did; each extra header cost measurable throughput in `npm run bench`
 * (helmet's full set: about a third of the public config route). HSTS is sent only when the
 * instance says it is served over https. The docs UI sets its own Content-Security-Policy.
 */
export function securityHeaders(publicUrl: string | null): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {
    "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
  };
  if (publicUrl?.startsWith("https://")) headers["Strict-Transport-Security"] = "max-age=31536000; includeSubDomains";
  return headers;
}

/** Adds the request id and the {@link securityHeaders} to every answer, errors included. */
export function registerResponseHeaders(app: FastifyInstance, publicUrl: string | null): void {
  const security = securityHeaders(publicUrl);
  // Callback style: cheaper than an async hook on the hottest path.
  app.addHook("onRequest", (request, reply, done) => {
    void reply.header("X-Request-Id", request.id).headers(security);
    done();
  });
}
