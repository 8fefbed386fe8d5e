import { ApiError } from "../../http/errors.js";

/**
 * The issue number a reference names: `42`, `#42`, `owner/repo#42` or the issue's URL, which
 * must be of the connected repository (compared case-insensitively, as GitHub does); 404
 * `github_issue_not_found` otherwise.
 */
export function parseIssueRef(ref: number | string, connection: { owner: string; repo: string }): number {
  if (typeof ref === "number") return ref;
  const text = ref.trim();
  const same = (owner: string, repo: string) => owner.toLowerCase() === connection.owner.toLowerCase() && repo.toLowerCase() === connection.repo.toLowerCase();
  let match = /^#?(\d{1,15})$/.exec(text);
  if (match !== null) return Number(match[1]);
  match = /^([\w.-]+)\/([\w.-]+)#(\d{1,15})$/.exec(text);
  if (match !== null && same(match[1]!, match[2]!)) return Number(match[3]);
  match = /^https?:\/\/[^/]+\/([\w.-]+)\/([\w.-]+)\/issues\/(\d{1,15})\/?(?:[?#].*)?$/.exec(text);
  if (match !== null && same(match[1]!, match[2]!)) return Number(match[3]);
  throw new ApiError("github_issue_not_found", { message: `"${text.slice(0, 200)}" is not an issue of ${connection.owner}/${connection.repo}` });
}
