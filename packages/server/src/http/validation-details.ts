import type { ValidationDetails } from "@tidings/protocol";

export interface AjvIssue {
  instancePath?: string;
  message?: string;
  keyword?: string;
  params?: Record<string, unknown>;
}

/** Turns ajv issues into zod-`flatten()`-shaped details (what the existing SDKs read). */
export function validationDetails(issues: readonly AjvIssue[], context: string | undefined): ValidationDetails {
  const details: ValidationDetails = { formErrors: [], fieldErrors: {} };
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
          : (issue.message ?? "Invalid value");
    if (field === "") {
      details.formErrors.push(context === undefined || context === "body" ? message : `${context}: ${message}`);
    } else {
      (details.fieldErrors[field] ??= []).push(message);
    }
  }
  return details;
}
