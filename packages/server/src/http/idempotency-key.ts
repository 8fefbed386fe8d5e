import type { FastifyRequest } from "fastify";
import { ApiError } from "./errors.js";

/** 1 to 255 printable ASCII characters (after the quotes of the IETF draft's string form). */
const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;
/** The draft sends the key as a structured-field string: `"…"` with `\"` and `\\` escapes. */
const QUOTED = /^"((?:[^"\\]|\\["\\])*)"$/;
/** The request's `Idempotency-Key`, undefined when none came; 400 when it is malformed or repeated. */
export function keyOf(request: FastifyRequest): string | undefined {
  const raw = request.headers["idempotency-key"];
  if (raw === undefined) return undefined;
  const raws = request.raw.rawHeaders;
  let sent = 0;
  for (let i = 0; i < raws.length; i += 2) if (raws[i]!.toLowerCase() === "idempotency-key") sent++;
  const quoted = typeof raw === "string" ? QUOTED.exec(raw) : null;
  const key = quoted === null ? raw : quoted[1]!.replace(/\\(["\\])/g, "$1");
  if (sent > 1 || typeof key !== "string" || !KEY_PATTERN.test(key)) throw new ApiError("invalid_idempotency_key");
  return key;
}
