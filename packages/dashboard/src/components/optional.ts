import { ApiFailure } from "../api.js";

/**
 * The answer of a console read that is a 404 with one of `codes` when the thing is not there yet
 * (no connection, no link): null then, any other failure still throws.
 *
 * @example
 * ```ts
 * const link = await optional(api<GithubIssueLink>("GET", `${base}/github`), ["github_link_not_found", "github_not_connected"]);
 * ```
 */
export async function optional<T>(read: Promise<T>, codes: readonly string[]): Promise<T | null> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof ApiFailure && error.status === 404 && error.code !== undefined && codes.includes(error.code)) return null;
    throw error;
  }
}
