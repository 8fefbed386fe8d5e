import type { FastifyReply, FastifyRequest } from "fastify";

/**
 * Whether the caller asked for a page: its `Accept` names `text/html`, as browsers' does. Only
 * then may a public API route answer HTML; any other client gets JSON, refusals in the
 * `{error, code}` envelope.
 *
 * @example
 * ```ts
 * if (!wantsHtml(request)) throw new ApiError("invalid_unsubscribe_token");
 * ```
 */
export function wantsHtml(request: FastifyRequest): boolean {
  return (request.headers.accept ?? "").toLowerCase().includes("text/html");
}

/** True when the caller asked for JSON and not for a page. */
export function wantsJsonOnly(request: FastifyRequest): boolean {
  const accept = (request.headers.accept ?? "").toLowerCase();
  return accept.includes("application/json") && !accept.includes("text/html");
}

/** Sends an HTML page, never cached. */
export function html(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply.code(status).header("Cache-Control", "no-store").type("text/html; charset=utf-8").send(body);
}
