import { describe, expect, it } from "vitest";
import { validationDetails } from "./validation-details.js";

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
