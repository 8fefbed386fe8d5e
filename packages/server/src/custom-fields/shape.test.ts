import { describe, expect, it } from "vitest";
import { ApiError } from "../http/errors.js";
import { fieldShape } from "./shape.js";

function named(run: () => unknown): Record<string, string[]> {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError && error.code === "validation_failed") return (error.options.details as { fieldErrors: Record<string, string[]> }).fieldErrors;
    throw error;
  }
  throw new Error("accepted");
}

describe("fieldShape", () => {
  it("fills in each type's limits: 1000 characters for text, 10 000 for long text, numbers not whole", () => {
    expect(fieldShape("text", undefined, undefined)).toEqual({ options: [], limits: { maxLength: 1000 } });
    expect(fieldShape("long_text", [], { maxLength: 200 })).toEqual({ options: [], limits: { maxLength: 200 } });
    expect(fieldShape("number", undefined, { min: 0 })).toEqual({ options: [], limits: { min: 0, integer: false } });
    expect(fieldShape("checkbox", undefined, {})).toEqual({ options: [], limits: {} });
    expect(fieldShape("multi_select", [{ value: " a ", label: " A " }], { maxSelected: 1 })).toEqual({ options: [{ value: "a", label: "A" }], limits: { maxSelected: 1 } });
  });

  it("refuses a limit another type takes, and a text longer than its type allows", () => {
    expect(named(() => fieldShape("text", undefined, { maxLength: 1001 }))).toEqual({ "limits.maxLength": ["Must be at most 1000"] });
    expect(named(() => fieldShape("checkbox", undefined, { maxLength: 3, integer: true }))).toEqual({
      "limits.maxLength": ["Not a limit of checkbox fields"],
      "limits.integer": ["Not a limit of checkbox fields"],
    });
    expect(named(() => fieldShape("number", undefined, { min: 5, max: 4 }))).toEqual({ "limits.max": ["Must not be below min"] });
  });

  it("asks selects for at least one option with distinct values, and other types for none", () => {
    expect(named(() => fieldShape("single_select", [], undefined))).toEqual({ options: ["A select needs at least one option"] });
    expect(named(() => fieldShape("single_select", [{ value: "a", label: "A" }, { value: "a ", label: "Again" }, { value: " ", label: "Blank" }], undefined))).toEqual({
      "options.1.value": ["Must differ from the other options' values"],
      "options.2.value": ["Must not be blank"],
    });
    expect(named(() => fieldShape("text", [{ value: "a", label: "A" }], undefined))).toEqual({ options: ["text fields have no options"] });
  });
});
