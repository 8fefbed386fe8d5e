import type { ValidationDetails } from "@tidings/protocol";

export interface AjvIssue {
  instancePath?: string;
  schemaPath?: string;
  message?: string;
  keyword?: string;
  params?: Record<string, unknown>;
}

/**
 * Turns ajv issues into zod-`flatten()`-shaped details (what the existing SDKs read). Field names
 * come from the request (a body key of an object that allows none is reported at its own path),
 * so they are gathered in a map: a key such as `toString` or `constructor` names a member every
 * plain object inherits.
 */
export function validationDetails(issues: readonly AjvIssue[], context: string | undefined): ValidationDetails {
  const formErrors: string[] = [];
  const fieldErrors = new Map<string, string[]>();
  for (const issue of issues) {
    let field = (issue.instancePath ?? "").replace(/^\//, "").replace(/\//g, ".");
    const missing = issue.params?.missingProperty;
    if (issue.keyword === "required" && typeof missing === "string") {
      field = field === "" ? missing : `${field}.${missing}`;
    }
    const message =
      issue.keyword === "required"
        ? "Required"
        : issue.keyword === "additionalProperties"
          ? `Unknown field ${String(issue.params?.additionalProperty ?? "")}`.trim()
          : // An object that allows no other key (TypeBox's `additionalProperties: Never`) names it.
            issue.keyword === "not" && issue.schemaPath?.endsWith("/additionalProperties/not") === true
            ? "Unknown field"
            : (issue.message ?? "Invalid value");
    if (field === "") {
      formErrors.push(context === undefined || context === "body" ? message : `${context}: ${message}`);
    } else {
      const messages = fieldErrors.get(field);
      if (messages === undefined) fieldErrors.set(field, [message]);
      else messages.push(message);
    }
  }
  // fromEntries defines each key as the object's own, `__proto__` included.
  return { formErrors, fieldErrors: Object.fromEntries(fieldErrors) };
}
