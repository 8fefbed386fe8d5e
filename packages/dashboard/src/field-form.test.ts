import type { CustomField } from "@tidings/protocol";
import { describe, expect, it } from "vitest";
import { createFieldBody, EMPTY_FIELD_FORM, formFromField, parseOptions, updateFieldBody } from "./field-form.js";
import { validateFieldDefinition } from "./field-validation.js";
import { changedValues, inputOf, valueOfInput, valueText } from "./field-values.js";

const plan = {
  id: "fld_1",
  appId: "app_1",
  boardId: null,
  key: "plan",
  label: "Plan",
  description: "",
  type: "single_select",
  required: true,
  appliesTo: ["feature_request", "feedback"],
  options: [
    { value: "free", label: "Free" },
    { value: "pro", label: "Pro plan" },
  ],
  limits: {},
  position: 0,
  archived: false,
  createdAt: "2030-01-01T00:00:00.000Z",
  updatedAt: "2030-01-01T00:00:00.000Z",
} satisfies CustomField;

describe("custom field definition form", () => {
  it("writes options one per line and reads them back, a lone value being its own label", () => {
    const form = formFromField(plan);
    expect(form.options).toBe("free | Free\npro | Pro plan");
    expect(parseOptions("ios\n\n web | Web app \n")).toEqual([
      { value: "ios", label: "ios" },
      { value: "web", label: "Web app" },
    ]);
    expect(validateFieldDefinition(form, false)).toEqual({});
    expect(updateFieldBody(form)).toEqual({ label: "Plan", description: "", required: true, appliesTo: ["feature_request", "feedback"], boardId: null, options: plan.options, limits: {} });
  });

  it("sends only the limits of the field's type, and the key only when given", () => {
    const number = { ...EMPTY_FIELD_FORM, label: "Seats", type: "number" as const, min: "1", max: "", integer: true, maxLength: "50" };
    expect(createFieldBody(number)).toMatchObject({ label: "Seats", type: "number", options: [], limits: { min: 1, integer: true } });
    expect(createFieldBody(number)).not.toHaveProperty("key");
    expect(createFieldBody({ ...number, key: "seats" }).key).toBe("seats");
    expect(createFieldBody({ ...EMPTY_FIELD_FORM, label: "Notes", type: "long_text", maxLength: "300" }).limits).toEqual({ maxLength: 300 });
  });

  it("names the server's body paths for every mistake before sending", () => {
    expect(validateFieldDefinition({ ...EMPTY_FIELD_FORM, key: "Plan!", type: "single_select", appliesTo: [] }, true)).toEqual({
      label: ["Required."],
      key: ["Start with a letter; use lowercase letters and digits, words joined by - or _ (up to 64)."],
      appliesTo: ["Choose at least one form."],
      options: ["Add at least one option."],
    });
    expect(validateFieldDefinition({ ...EMPTY_FIELD_FORM, label: "Plan", type: "multi_select", options: "a\na | A\n | x", maxSelected: "0" }, true)).toEqual({
      options: ["The value “a” is used twice.", "Option 3 needs a value and a label of up to 100 characters."],
      "limits.maxSelected": ["Enter a whole number from 1 to 50."],
    });
    expect(validateFieldDefinition({ ...EMPTY_FIELD_FORM, label: "N", type: "number", min: "5", max: "2" }, true)).toEqual({ "limits.max": ["The maximum must not be below the minimum."] });
    expect(validateFieldDefinition({ ...EMPTY_FIELD_FORM, label: "T", maxLength: "1001" }, true)).toEqual({ "limits.maxLength": ["Enter a whole number from 1 to 1000."] });
    expect(validateFieldDefinition({ ...EMPTY_FIELD_FORM, label: "B", boardId: "brd_1", appliesTo: ["feature_request", "feedback"] }, true)).toEqual({
      appliesTo: ["A board's own field cannot be asked on feedback."],
    });
    // The key of an existing field is not checked: it never changes.
    expect(validateFieldDefinition({ ...EMPTY_FIELD_FORM, label: "Old", key: "Legacy Key" }, false)).toEqual({});
  });
});

describe("custom field values of a request", () => {
  const fields = [
    { key: "plan", type: "single_select" },
    { key: "seats", type: "number" },
    { key: "platforms", type: "multi_select" },
    { key: "urgent", type: "checkbox" },
  ] as const;

  it("sends only what changed, cleared values as null, and refuses a number that is not one", () => {
    const initial = { plan: inputOf("single_select", "pro"), seats: inputOf("number", 12), platforms: inputOf("multi_select", ["ios"]), urgent: inputOf("checkbox", undefined) };
    expect(initial).toEqual({ plan: "pro", seats: "12", platforms: ["ios"], urgent: false });
    expect(changedValues(fields, initial, initial)).toEqual({ values: {}, errors: {} });
    expect(changedValues(fields, initial, { ...initial, seats: "", platforms: [], urgent: true })).toEqual({ values: { seats: null, platforms: null, urgent: true }, errors: {} });
    expect(changedValues(fields, initial, { ...initial, plan: "free", seats: "twelve" })).toEqual({ values: { plan: "free" }, errors: { "fields.seats": ["Enter a number."] } });
    expect(valueOfInput("number", " 2.5 ")).toEqual({ value: 2.5 });
    expect(valueOfInput("text", "  ")).toEqual({ value: null });
  });

  it("shows stored values as people read them", () => {
    expect(valueText(plan, "pro")).toBe("Pro plan");
    expect(valueText(plan, "gone")).toBe("gone");
    expect(valueText(undefined, ["ios", "web"])).toBe("ios, web");
    expect(valueText(undefined, true)).toBe("Yes");
    expect(valueText(undefined, 12)).toBe("12");
  });
});
