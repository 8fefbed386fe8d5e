import { describe, expect, it } from "vitest";
import { EMPTY_TAG_FORM, tagBody, validateTag } from "./tag-form.js";

describe("tag form", () => {
  it("checks name, slug and colour, and sends no colour as null", () => {
    expect(validateTag({ ...EMPTY_TAG_FORM, color: "red", slug: "a" })).toEqual({
      name: ["Required."],
      slug: ["Use 2 to 64 lowercase letters, digits and single dashes."],
      color: ["Enter a colour as #rrggbb, or leave it empty."],
    });
    expect(tagBody({ ...EMPTY_TAG_FORM, name: " UI ", color: "#FF0000" })).toEqual({ name: "UI", color: "#ff0000", visibility: "public" });
    expect(tagBody({ name: "Ask", slug: "ask", color: "", visibility: "team" })).toEqual({ name: "Ask", slug: "ask", color: null, visibility: "team" });
  });
});
