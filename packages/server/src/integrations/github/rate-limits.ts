/** The wait GitHub asks for after a secondary rate limit that names no time: at least a minute. */
export const SECONDARY_RATE_LIMIT_WAIT_MS = 60_000;

/** An answer's headers, as Octokit gives them. */
export type GithubHeaders = Record<string, string | number | undefined>;

function header(headers: GithubHeaders | undefined, name: string): string | undefined {
  const value = headers?.[name];
  return value === undefined ? undefined : String(value);
}

/**
 * How long GitHub asks us to wait, from an answer's headers (its documented order): `retry-after`
 * seconds, else the primary limit's `x-ratelimit-reset` when `x-ratelimit-remaining` is 0.
 * Undefined when the headers ask for no wait.
 *
 * @example
 * ```ts
 * rateLimitWaitMs({ "retry-after": "30" }, Date.now()); // 30_000
 * ```
 */
export function rateLimitWaitMs(headers: GithubHeaders | undefined, nowMs: number): number | undefined {
  const retryAfter = Number(header(headers, "retry-after"));
  if (header(headers, "retry-after") !== undefined && Number.isFinite(retryAfter) && retryAfter >= 0) return retryAfter * 1000;
  if (header(headers, "x-ratelimit-remaining") === "0") {
    const reset = Number(header(headers, "x-ratelimit-reset"));
    if (Number.isFinite(reset)) return Math.max(0, reset * 1000 - nowMs);
  }
  return undefined;
}
