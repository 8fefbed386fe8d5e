import { describe, expect, it } from "vitest";
import { ApiError, toErrorResponse, validationDetails } from "./errors.js";

describe("validationDetails", () => {
  it("names the field of each issue, required ones included", () => {
    const details = validationDetails(
      [
        { instancePath: "", keyword: "required", params: { missingProperty: "name" }, message: "must have required property 'name'" },
        { instancePath: "/sdk/theme", keyword: "enum", params: {}, message: "must be equal to one of the allowed values" },
        { instancePath: "", keyword: "type", params: {}, message: "must be object" },
      ],
      "body",
    );
    expect(details).toEqual({
      formErrors: ["must be object"],
      fieldErrors: { name: ["Required"], "sdk.theme": ["must be equal to one of the allowed values"] },
    });
  });
});

describe("toErrorResponse", () => {
  it("answers an ApiError with its registry status and code", () => {
    expect(toErrorResponse(new ApiError("capability_required"))).toEqual({
      status: 403,
      body: { error: "Your role does not allow this action", code: "capability_required" },
    });
  });

  it("never reveals the message of an unexpected error", () => {
    const { status, body } = toErrorResponse(new Error("password=hunter2 at db.ts:12"));
    expect(status).toBe(500);
    expect(body).toEqual({ error: "Internal server error", code: "internal_error" });
  });
});
