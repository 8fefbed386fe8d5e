import { describe, expect, it } from "vitest";
import { ApiFailure } from "./api.js";
import { errorsAt, formErrorsOf } from "./form-errors.js";

describe("server refusals on forms", () => {
  it("puts field errors, and refusals that name no field, next to their input", () => {
    const invalid = new ApiFailure(400, "validation_failed", "options.1.value: Must differ", { "options.1.value": ["Must differ"], label: ["Must not be blank"] });
    const errors = formErrorsOf(invalid);
    expect(errorsAt(errors, "options", (i) => `Option ${i + 1}`)).toEqual(["Option 2: Must differ"]);
    expect(errorsAt(errors, "label")).toEqual(["Must not be blank"]);
    expect(errorsAt(errors, "key")).toBeUndefined();
    expect(formErrorsOf(new ApiFailure(409, "slug_taken", "That slug is already in use"), { slug_taken: "slug" })).toEqual({ slug: ["That slug is already in use"] });
    expect(formErrorsOf(new ApiFailure(400, "too_many_boards", "Too many"), { slug_taken: "slug" })).toEqual({});
    expect(formErrorsOf(new Error("offline"))).toEqual({});
  });
});
