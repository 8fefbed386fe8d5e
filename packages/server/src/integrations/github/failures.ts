import { RefusedAddressError } from "../../webhooks/address-guard.js";
import { rateLimitWaitMs, SECONDARY_RATE_LIMIT_WAIT_MS, type GithubHeaders } from "./rate-limits.js";

/** Why a call failed, as the caller acts on it. */
export type GithubFailure =
  /** Primary or secondary rate limit: call again no sooner than `retryAfterMs` from now. */
  | { kind: "rate_limited"; retryAfterMs: number }
  /** 401: the token is revoked, expired or wrong. */
  | { kind: "unauthorized" }
  /** 403 that is no rate limit: the token lacks a permission. */
  | { kind: "forbidden"; message: string }
  /** 404: the issue or the repository does not exist for this token. */
  | { kind: "not_found" }
  /** The GitHub App installation can no longer reach the repository: `reason` says why. */
  | { kind: "gone"; reason: string }
  /** Any other answer (a 422, a 5xx). */
  | { kind: "error"; status: number; message: string }
  /** No answer: refused address, network error or timeout. */
  | { kind: "unreachable"; message: string };

/** A failed GitHub call. */
export class GithubCallError extends Error {
  constructor(readonly failure: GithubFailure) {
    super(describe(failure));
    this.name = "GithubCallError";
  }
}

function describe(failure: GithubFailure): string {
  switch (failure.kind) {
    case "rate_limited":
      return `GitHub rate limit: retry in ${Math.ceil(failure.retryAfterMs / 1000)} s`;
    case "unauthorized":
      return "GitHub refused the token (401)";
    case "forbidden":
      return `GitHub refused the call (403): ${failure.message}`;
    case "not_found":
      return "GitHub answered 404";
    case "gone":
      return `GitHub App installation unusable: ${failure.reason}`;
    case "error":
      return `GitHub answered ${failure.status}: ${failure.message}`;
    case "unreachable":
      return `GitHub could not be reached: ${failure.message}`;
  }
}

/** Turns what Octokit threw into a {@link GithubFailure}. */
export function classify(error: unknown, nowMs: number): GithubFailure {
  if (error instanceof GithubCallError) return error.failure;
  if (error instanceof RefusedAddressError) return { kind: "unreachable", message: error.reason };
  const status = typeof (error as { status?: unknown }).status === "number" ? (error as { status: number }).status : undefined;
  const message = error instanceof Error ? error.message : String(error);
  // Octokit's RequestError carries status 500 for a request that never got an answer.
  const response = (error as { response?: { headers?: GithubHeaders } }).response;
  if (status === undefined || response === undefined) return { kind: "unreachable", message };
  if (status === 401) return { kind: "unauthorized" };
  if (status === 404) return { kind: "not_found" };
  if (status === 403 || status === 429) {
    const wait = rateLimitWaitMs(response.headers, nowMs);
    if (wait !== undefined) return { kind: "rate_limited", retryAfterMs: wait };
    if (status === 429 || /rate limit/i.test(message)) return { kind: "rate_limited", retryAfterMs: SECONDARY_RATE_LIMIT_WAIT_MS };
    return { kind: "forbidden", message: message.slice(0, 300) };
  }
  return { kind: "error", status, message: message.slice(0, 300) };
}
