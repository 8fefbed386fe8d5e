import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";

const CALLER_ID = /^[A-Za-z0-9._-]{8,64}$/;

/**
 * The request id: the caller's `X-Request-Id` when it is 8–64 characters of `[A-Za-z0-9._-]`,
 * otherwise a fresh UUID. Used as Fastify's `genReqId`, so logs and the response header agree.
 *
 * @example
 * ```ts
 * requestId({ headers: { "x-request-id": "cli-1234abcd" } } as never); // "cli-1234abcd"
 * ```
 */
export function requestId(req: Pick<IncomingMessage, "headers">): string {
  const raw = req.headers["x-request-id"];
  return typeof raw === "string" && CALLER_ID.test(raw) ? raw : randomUUID();
}
