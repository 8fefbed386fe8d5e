import { ApiError } from "../../http/errors.js";

/**
 * The identifier a reference names: `ENG-123` (any case) or the issue's URL
 * (`https://linear.app/acme/issue/ENG-123/a-slug`); 404 `linear_issue_not_found` otherwise.
 *
 * @example
 * ```ts
 * parseLinearIssueRef("https://linear.app/acme/issue/ENG-123/dark-mode"); // "ENG-123"
 * ```
 */
export function parseLinearIssueRef(ref: string): string {
  const text = ref.trim();
  let match = /^([A-Za-z][A-Za-z0-9]{0,9}-\d{1,9})$/.exec(text);
  if (match === null) match = /^https?:\/\/[^/]+\/[^/]+\/issue\/([A-Za-z][A-Za-z0-9]{0,9}-\d{1,9})(?:[/?#].*)?$/.exec(text);
  if (match === null) throw new ApiError("linear_issue_not_found", { message: `"${text.slice(0, 200)}" is not a Linear issue identifier or URL` });
  return match[1]!.toUpperCase();
}
