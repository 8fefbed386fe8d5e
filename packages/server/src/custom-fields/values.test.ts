import { textLength, type CustomFieldLimits, type CustomFieldType } from "@tidings/protocol";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ApiError } from "../http/errors.js";
import { checkFieldValues, parseStoredValues, type FieldDefinition, type StoredFieldValues } from "./values.js";

/** The fields a refusal names (its `details.fieldErrors` keys), or null when the call passed. */
function refusal(run: () => unknown): Record<string, string[]> | null {
  try {
    run();
    return null;
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== "validation_failed") throw error;
    return (error.options.details as { fieldErrors: Record<string, string[]> }).fieldErrors;
  }
}

const field = (key: string, type: CustomFieldType, extra: Partial<FieldDefinition> = {}): FieldDefinition => ({
  id: `fld_${key}`,
  key,
  type,
  required: false,
  options: [],
  limits: type === "text" ? { maxLength: 1000 } : type === "long_text" ? { maxLength: 10_000 } : {},
  ...extra,
});
const options = (...values: string[]) => values.map((value) => ({ value, label: value.toUpperCase() }));

const company = field("company", "text", { required: true, limits: { maxLength: 20 } });
const story = field("story", "long_text", { limits: { maxLength: 30 } });
const seats = field("seats", "number", { limits: { min: 1, max: 500, integer: true } });
const budget = field("budget", "number", { limits: { min: -10.5 } });
const plan = field("plan", "single_select", { options: options("free", "pro") });
const platforms = field("platforms", "multi_select", { options: options("ios", "android", "web"), limits: { maxSelected: 2 } });
const terms = field("terms", "checkbox", { required: true });
const newsletter = field("newsletter", "checkbox");
const all = [company, story, seats, budget, plan, platforms, terms, newsletter];
const minimal = { company: "Acme", terms: true };

describe("checkFieldValues", () => {
  it("stores every accepted value by field id, text trimmed, and leaves out what was not given", () => {
    expect(
      checkFieldValues(all, { company: "  Acme  ", story: "Line one\nline two", seats: 12, budget: -3.25, plan: "pro", platforms: ["web", "ios"], terms: true, newsletter: false }),
    ).toEqual({ fld_company: "Acme", fld_story: "Line one\nline two", fld_seats: 12, fld_budget: -3.25, fld_plan: "pro", fld_platforms: ["web", "ios"], fld_terms: true, fld_newsletter: false });
    expect(checkFieldValues(all, minimal)).toEqual({ fld_company: "Acme", fld_terms: true });
    expect(checkFieldValues([], undefined)).toEqual({});
  });

  it("counts null, blank text and an empty selection as not given", () => {
    expect(checkFieldValues(all, { ...minimal, story: "   ", plan: null, platforms: [], seats: null })).toEqual({ fld_company: "Acme", fld_terms: true });
    expect(refusal(() => checkFieldValues(all, { company: " \n ", terms: true }))).toEqual({ "fields.company": ["Required"] });
  });

  it("names every required field left out, and an unticked required checkbox", () => {
    expect(refusal(() => checkFieldValues(all, {}))).toEqual({ "fields.company": ["Required"], "fields.terms": ["Required"] });
    expect(refusal(() => checkFieldValues(all, { company: "Acme", terms: false }))).toEqual({ "fields.terms": ["Must be checked"] });
  });

  it("names a key no field of the form has", () => {
    expect(refusal(() => checkFieldValues(all, { ...minimal, colour: "red", "": 1 }))).toEqual({ "fields.colour": ["Unknown field"], "fields.": ["Unknown field"] });
    expect(refusal(() => checkFieldValues([], { toString: "x" }))).toEqual({ "fields.toString": ["Unknown field"] });
  });

  it.each([
    ["company", 42, "Must be a string"],
    ["company", "x".repeat(21), "Must be at most 20 characters"],
    ["company", "two\nlines", "Must be a single line"],
    ["story", ["a"], "Must be a string"],
    ["story", "y".repeat(31), "Must be at most 30 characters"],
    ["seats", "12", "Must be a number"],
    ["seats", 1.5, "Must be a whole number"],
    ["seats", 0, "Must be at least 1"],
    ["seats", 501, "Must be at most 500"],
    ["budget", -11, "Must be at least -10.5"],
    ["plan", "gold", "Not an option: gold"],
    ["plan", "PRO", "Not an option: PRO"],
    ["plan", ["pro"], "Must be one of the field's option values"],
    ["platforms", "ios", "Must be a list of the field's option values"],
    ["platforms", ["ios", 1], "Must be a list of the field's option values"],
    ["platforms", ["ios", "ios"], "Must not name an option twice"],
    ["platforms", ["ios", "mac"], "Not an option: mac"],
    ["platforms", ["ios", "android", "web"], "Must have at most 2 options"],
    ["newsletter", "yes", "Must be true or false"],
    ["newsletter", 1, "Must be true or false"],
  ])("refuses %s = %j: %s", (key, value, message) => {
    expect(refusal(() => checkFieldValues(all, { ...minimal, [key]: value }))).toEqual({ [`fields.${key}`]: [message] });
  });

  it("counts text in characters as the schemas do: an emoji is one", () => {
    const short = field("short", "text", { limits: { maxLength: 3 } });
    expect(checkFieldValues([short], { short: "a🦄b" })).toEqual({ fld_short: "a🦄b" });
    expect(refusal(() => checkFieldValues([short], { short: "a🦄bc" }))).toEqual({ "fields.short": ["Must be at most 3 characters"] });
  });

  it("drops lone surrogates, which no column or jsonb can hold", () => {
    expect(checkFieldValues([story], { story: "a\uD800b" })).toEqual({ fld_story: "ab" });
  });

  it("keeps a value stored for an option or limit that changed since: reading is not checking", () => {
    const stored = JSON.stringify(checkFieldValues([plan], { plan: "free" }));
    expect(parseStoredValues(stored)).toEqual({ fld_plan: "free" });
    expect(parseStoredValues("not json")).toEqual({});
    expect(parseStoredValues('[1,2]')).toEqual({});
    expect(parseStoredValues('{"fld_a":{"nested":1},"fld_b":[1],"fld_c":"ok"}')).toEqual({ fld_c: "ok" });
  });
});

// ---------------------------------------------------------------------------------------------
// Properties over generated definitions.

const TYPES = ["text", "long_text", "number", "single_select", "multi_select", "checkbox"] as const;

/** A definition of `type` with generated limits and options; `index` keeps ids and keys apart. */
function definition(type: CustomFieldType, index: number): fc.Arbitrary<FieldDefinition> {
  const base = { id: `fld_${index}`, key: `k${index}` };
  const required = fc.boolean();
  const values = fc.uniqueArray(fc.string({ minLength: 1, maxLength: 8 }).map((s) => s.trim()).filter((s) => s !== ""), { minLength: 1, maxLength: 6 });
  switch (type) {
    case "text":
    case "long_text":
      return fc.record({ required, maxLength: fc.integer({ min: 1, max: type === "text" ? 1000 : 10_000 }) }).map(({ required, maxLength }) => ({ ...base, type, required, options: [], limits: { maxLength } }));
    case "number":
      return fc
        .record({ required, a: fc.option(fc.integer({ min: -1000, max: 1000 })), b: fc.option(fc.integer({ min: -1000, max: 1000 })), integer: fc.boolean() })
        .map(({ required, a, b, integer }) => {
          const limits: CustomFieldLimits = { integer };
          if (a !== null) limits.min = b === null ? a : Math.min(a, b);
          if (b !== null) limits.max = a === null ? b : Math.max(a, b);
          return { ...base, type, required, options: [], limits };
        });
    case "single_select":
      return fc.record({ required, values }).map(({ required, values }) => ({ ...base, type, required, options: options(...values), limits: {} }));
    case "multi_select":
      return fc
        .record({ required, values, maxSelected: fc.option(fc.integer({ min: 1, max: 6 })) })
        .map(({ required, values, maxSelected }) => ({ ...base, type, required, options: options(...values), limits: maxSelected === null ? {} : { maxSelected } }));
    case "checkbox":
      return required.map((required) => ({ ...base, type, required, options: [], limits: {} }));
  }
}

const definitions = fc
  .array(fc.constantFrom(...TYPES), { minLength: 1, maxLength: 8 })
  .chain((types) => fc.tuple(...types.map((type, i) => definition(type, i))));

/** A value the definition accepts, as a client would send it (text already trimmed). */
function validValue(d: FieldDefinition): fc.Arbitrary<unknown> {
  const { min, max, integer, maxLength, maxSelected } = d.limits;
  switch (d.type) {
    case "text":
    case "long_text":
      return fc
        .string({ unit: "grapheme", minLength: 1, maxLength: Math.min(maxLength ?? 50, 50) })
        .map((s) => (d.type === "text" ? s.replace(/[\r\n\u2028\u2029]/g, " ") : s).trim())
        .filter((s) => s !== "" && textLength(s) <= (maxLength ?? Infinity));
    case "number":
      return integer === true
        ? fc.integer({ min: min ?? -1e9, max: max ?? 1e9 })
        : fc.double({ min: min ?? -1e12, max: max ?? 1e12, noNaN: true, noDefaultInfinity: true }).map((n) => (n === 0 ? 0 : n)); // -0 is 0 once in JSON
    case "single_select":
      return fc.constantFrom(...d.options.map((o) => o.value));
    case "multi_select":
      return fc.shuffledSubarray(d.options.map((o) => o.value), { minLength: 1, maxLength: Math.min(maxSelected ?? d.options.length, d.options.length) });
    case "checkbox":
      return d.required ? fc.constant(true) : fc.boolean();
  }
}

/** Values for every required field and some optional ones. */
function validInput(defs: readonly FieldDefinition[]): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .tuple(...defs.map((d) => (d.required ? validValue(d).map((v) => [d.key, v] as const) : fc.option(validValue(d).map((v) => [d.key, v] as const)))))
    .map((pairs) => Object.fromEntries(pairs.filter((p): p is readonly [string, unknown] => p !== null)));
}

/** A value the definition refuses, whatever its limits. */
function invalidValue(d: FieldDefinition): fc.Arbitrary<unknown> {
  const notString = fc.oneof(fc.integer(), fc.boolean(), fc.array(fc.string()), fc.dictionary(fc.string(), fc.string()));
  const { min, max, integer, maxLength, maxSelected } = d.limits;
  const values = d.options.map((o) => o.value);
  switch (d.type) {
    case "text":
    case "long_text": {
      const tooLong = fc.constant("x".repeat((maxLength ?? 10_000) + 1));
      return d.type === "text" ? fc.oneof(notString, tooLong, fc.constant("one\ntwo")) : fc.oneof(notString, tooLong);
    }
    case "number": {
      const wrong: fc.Arbitrary<unknown>[] = [fc.string(), fc.boolean(), fc.array(fc.integer())];
      if (min !== undefined) wrong.push(fc.integer({ min: min - 1000, max: min - 1 }));
      if (max !== undefined) wrong.push(fc.integer({ min: max + 1, max: max + 1000 }));
      if (integer === true) wrong.push(fc.constant(0.5));
      return fc.oneof(...wrong);
    }
    case "single_select":
      return fc.oneof(fc.string().filter((s) => !values.includes(s)), fc.integer(), fc.constant(values));
    case "multi_select": {
      const wrong: fc.Arbitrary<unknown>[] = [fc.constant(values[0]), fc.string().filter((s) => !values.includes(s)).map((s) => [s]), fc.constant([values[0], values[0]])];
      if (maxSelected !== undefined && maxSelected < values.length) wrong.push(fc.constant(values));
      return fc.oneof(...wrong);
    }
    case "checkbox":
      return d.required ? fc.oneof(fc.constant(false), fc.string(), fc.integer()) : fc.oneof(fc.string(), fc.integer());
  }
}

/** Stored values read back by key, as a client would see them. */
function byKey(defs: readonly FieldDefinition[], stored: StoredFieldValues): Record<string, unknown> {
  return Object.fromEntries(defs.filter((d) => Object.hasOwn(stored, d.id)).map((d) => [d.key, stored[d.id]]));
}

describe("checkFieldValues, for any definitions", () => {
  it("accepts every valid body, and what it stores reads back as sent, through JSON too", () => {
    fc.assert(
      fc.property(
        definitions.chain((defs) => fc.tuple(fc.constant(defs), validInput(defs))),
        ([defs, input]) => {
          const stored = checkFieldValues(defs, input);
          expect(byKey(defs, stored)).toEqual(input);
          expect(parseStoredValues(JSON.stringify(stored))).toEqual(stored);
        },
      ),
    );
  });

  it("refuses a body with one bad value, naming that field and no other", () => {
    fc.assert(
      fc.property(
        definitions.chain((defs) => fc.tuple(fc.constant(defs), validInput(defs), fc.nat({ max: defs.length - 1 }))).chain(([defs, input, i]) =>
          fc.tuple(fc.constant(defs), fc.constant(input), fc.constant(defs[i]!), invalidValue(defs[i]!)),
        ),
        ([defs, input, bad, value]) => {
          expect(Object.keys(refusal(() => checkFieldValues(defs, { ...input, [bad.key]: value })) ?? {})).toEqual([`fields.${bad.key}`]);
        },
      ),
    );
  });

  it("refuses a body missing a required field, or with a key the form does not ask, naming it", () => {
    fc.assert(
      fc.property(
        definitions.chain((defs) => fc.tuple(fc.constant(defs), validInput(defs))),
        fc.string({ minLength: 1 }),
        ([defs, input], extra) => {
          for (const d of defs.filter((d) => d.required)) {
            const { [d.key]: _left, ...rest } = input;
            expect(refusal(() => checkFieldValues(defs, rest))).toEqual({ [`fields.${d.key}`]: ["Required"] });
          }
          if (!defs.some((d) => d.key === extra)) {
            expect(refusal(() => checkFieldValues(defs, { ...input, [extra]: "x" }))).toEqual({ [`fields.${extra}`]: ["Unknown field"] });
          }
        },
      ),
    );
  });

  it("on any JSON body, either stores values that read back as sent or names only fields of the body or required ones", () => {
    fc.assert(
      fc.property(definitions, fc.dictionary(fc.oneof(fc.constantFrom("k0", "k1", "k2", "k3"), fc.string()), fc.jsonValue()), (defs, input) => {
        const named = refusal(() => checkFieldValues(defs, input));
        if (named === null) {
          const stored = checkFieldValues(defs, input);
          for (const [key, value] of Object.entries(byKey(defs, stored))) {
            const sent = input[key];
            expect(value).toEqual(typeof sent === "string" ? sent.trim() : sent === 0 ? 0 : sent);
          }
          return;
        }
        const allowed = new Set([...Object.keys(input), ...defs.filter((d) => d.required).map((d) => d.key)].map((k) => `fields.${k}`));
        for (const name of Object.keys(named)) expect(allowed.has(name), name).toBe(true);
      }),
    );
  });
});
