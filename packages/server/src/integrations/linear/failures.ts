import { loadedLinearSdk } from "./sdk.js";

/** The wait after a rate limit that names no time. */
export const LINEAR_RATE_LIMIT_WAIT_MS = 60_000;

/** Why a call failed, as the caller acts on it. */
export type LinearFailure =
  | { kind: "rate_limited"; retryAfterMs: number }
  | { kind: "unauthorized" }
  | { kind: "forbidden" }
  | { kind: "not_found" }
  | { kind: "error"; message: string };

/**
 * What a failed call means: HTTP 429 or a `RATELIMITED` GraphQL error is a rate limit (with
 * Linear's `retry-after` or reset time), an authentication error is a refused key, a forbidden
 * one a key without access; an "entity not found" answer is a missing issue.
 */
export function classifyLinear(error: unknown, nowMs: number): LinearFailure {
  if (error instanceof NotOfTeamError) return { kind: "not_found" };
  const sdk = loadedLinearSdk();
  if (sdk === undefined || !(error instanceof sdk.LinearError)) return { kind: "error", message: error instanceof Error ? error.message : String(error) };
  const codes = ((error.raw as { response?: { errors?: Array<{ extensions?: { code?: unknown } }> } } | undefined)?.response?.errors ?? []).map((e) => e.extensions?.code);
  if (error instanceof sdk.RatelimitedLinearError || codes.includes("RATELIMITED")) {
    const limited = error instanceof sdk.RatelimitedLinearError ? error : undefined;
    const reset = limited?.requestsResetAt ?? limited?.complexityResetAt;
    const retryAfterMs = limited?.retryAfter !== undefined ? limited.retryAfter * 1000 : reset !== undefined ? Math.max(1000, reset - nowMs) : LINEAR_RATE_LIMIT_WAIT_MS;
    return { kind: "rate_limited", retryAfterMs };
  }
  if (error instanceof sdk.AuthenticationLinearError) return { kind: "unauthorized" };
  if (error instanceof sdk.ForbiddenLinearError) return { kind: "forbidden" };
  if (/not found/i.test(error.message)) return { kind: "not_found" };
  return { kind: "error", message: error.message };
}

/** An issue that exists but belongs to another team than the connection's. */
export class NotOfTeamError extends Error {
  constructor(identifier: string) {
    super(`${identifier} is not an issue of the connected team`);
    this.name = "NotOfTeamError";
  }
}
