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

  it("names fields called after members every object inherits, each with its own messages", () => {
    const names = ["toString", "constructor", "hasOwnProperty", "valueOf", "__proto__"];
    const unknown = (name: string) => ({ instancePath: `/${name}`, schemaPath: "#/additionalProperties/not", keyword: "not", params: {}, message: "must NOT be valid" });
    const details = validationDetails([...names.map(unknown), { instancePath: "/toString", keyword: "type", params: {}, message: "must be string" }], "body");
    expect(Object.getPrototypeOf(details.fieldErrors)).toBe(Object.prototype);
    expect(JSON.parse(JSON.stringify(details))).toEqual({
      formErrors: [],
      fieldErrors: JSON.parse(
        '{"toString":["Unknown field","must be string"],"constructor":["Unknown field"],"hasOwnProperty":["Unknown field"],"valueOf":["Unknown field"],"__proto__":["Unknown field"]}',
      ),
    });
  });
});
