import cors from "@fastify/cors";
import type { FastifyInstance } from "fastify";

/** Headers SDKs and the web portal send cross-origin. */
export const PUBLIC_REQUEST_HEADERS = [
  "Content-Type",
  "X-User-Token",
  "X-User-Hash",
  "X-SSO-Token",
  "X-App-Key",
  "X-Request-Id",
  "X-SDK-Version",
  "Authorization",
  "If-None-Match",
  "Idempotency-Key",
];

/** Headers a browser script may read from our answers. */
export const EXPOSED_HEADERS = ["X-Request-Id", "Retry-After", "Warning", "X-Deprecated-Query-Token", "ETag", "Idempotent-Replayed"];

/**
 * CORS for the public API: any origin, no credentials. Registered in the public routes' scope
 * only, so console answers carry no CORS headers. Static options: a per-request delegator
 * cost measurable throughput in `npm run bench`. An OPTIONS without the preflight headers gets
 * the same 204 (strict mode answered it with a text/plain 400, outside the error envelope).
 */
export async function registerPublicCors(scope: FastifyInstance): Promise<void> {
  await scope.register(cors, {
    origin: "*",
    methods: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
    allowedHeaders: PUBLIC_REQUEST_HEADERS,
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 600,
    strictPreflight: false,
  });
}
