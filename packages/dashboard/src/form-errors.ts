import { ApiFailure } from "./api.js";
import type { FieldErrors } from "./settings-form.js";

/**
 * The errors a refusal names per input: the server's `details.fieldErrors` (keyed by body path,
 * `accessRule.plans.0`, `fields.plan`), or, for a refusal that names no field, its message under
 * the input `byCode` gives for its code (`slug_taken` → `slug`). Anything else names no input and
 * answers `{}`, left to the page's banner.
 *
 * @example
 * ```ts
 * formErrorsOf(new ApiFailure(409, "slug_taken", "That slug is already in use"), { slug_taken: "slug" }); // { slug: ["That slug is already in use"] }
 * ```
 */
export function formErrorsOf(error: unknown, byCode: Readonly<Record<string, string>> = {}): FieldErrors {
  if (!(error instanceof ApiFailure)) return {};
  if (Object.keys(error.fieldErrors).length > 0) return { ...error.fieldErrors };
  const field = error.code === undefined ? undefined : byCode[error.code];
  return field === undefined ? {} : { [field]: [error.message] };
}

/**
 * The messages for one input: those of `path` itself and of every path below it
 * (`options.2.value` under `options`), the latter led by `item(index)` when they name a list
 * item, so "Option 3: Must not be blank" tells which line is wrong.
 *
 * @example
 * ```ts
 * errorsAt({ "options.2.value": ["Must not be blank"] }, "options", (i) => `Option ${i + 1}`); // ["Option 3: Must not be blank"]
 * ```
 */
export function errorsAt(errors: FieldErrors, path: string, item?: (index: number) => string): string[] | undefined {
  const out: string[] = [];
  for (const [key, messages] of Object.entries(errors)) {
    if (key === path) out.push(...messages);
    else if (key.startsWith(`${path}.`)) {
      const index = /^(\d+)(?:\.|$)/.exec(key.slice(path.length + 1))?.[1];
      const lead = index === undefined || item === undefined ? "" : `${item(Number(index))}: `;
      out.push(...messages.map((message) => `${lead}${message}`));
    }
  }
  return out.length === 0 ? undefined : out;
}
