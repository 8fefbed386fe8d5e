import { createHash } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";

/** A response body prepared once: its JSON text and a strong ETag. */
export interface PreparedBody {
  json: string;
  etag: string;
}

/** Serializes `value` and computes its ETag. */
export function prepareBody(value: unknown): PreparedBody {
  const json = JSON.stringify(value);
  return { json, etag: `"${createHash("sha1").update(json).digest("base64url")}"` };
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch.split(",").some((tag) => {
    const t = tag.trim();
    return t === "*" || t === etag || t === `W/${etag}`;
  });
}

/**
 * Sends a prepared JSON body with ETag and Cache-Control, answering 304 when the caller already
 * has it. `shared` bodies may be kept by shared caches for `maxAgeSeconds`.
 */
export function sendCached(
  request: FastifyRequest,
  reply: FastifyReply,
  body: PreparedBody,
  options: { shared: boolean; maxAgeSeconds: number; vary?: string },
): FastifyReply {
  void reply.header("ETag", body.etag);
  void reply.header(
    "Cache-Control",
    options.shared ? `public, max-age=${options.maxAgeSeconds}` : "private, max-age=0, must-revalidate",
  );
  if (options.vary !== undefined) void reply.header("Vary", options.vary);
  if (matches(request.headers["if-none-match"], body.etag)) return reply.code(304).send();
  return reply.type("application/json; charset=utf-8").send(body.json);
}
