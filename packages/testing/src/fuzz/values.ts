import fc from "fast-check";
import type { JsonSchema } from "./openapi-walker.js";

/**
 * A JSON token written into a body as is: numbers JSON.stringify cannot produce (`1e999` parses
 * to Infinity, long digit runs lose precision) still reach the server's parser.
 */
export class RawJson {
  constructor(readonly text: string) {}
}

/** Serializes a value that may hold {@link RawJson} tokens. */
export function toJsonText(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (v instanceof RawJson) {
      raws.push(v.text);
      return `@@raw${raws.length - 1}@@`;
    }
    return v;
  });
  return (text ?? "null").replace(/"@@raw(\d+)@@"/g, (_m, i: string) => raws[Number(i)] ?? "null");
}

/** Strings that have broken servers before: control and format characters, lone surrogates, huge ones. */
export const oddString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(
    "", " ", "\u0000", "a\u0000b", "\uD800", "\uDFFF", "x\uD83D", "\uDE00y", "\u202Eevil\u202C", "\u200B", "\uFEFF", "\uFFFF", "\uFFFE",
    "😀", "👨‍👩‍👧‍👦", "🏳️‍🌈".repeat(20), "Ω≈ç√∫", "İıßẞ", "ｆｕｌｌ", "e\u0301", "עברית", "مرحبا", "\r\n", "\t", "\\", "\"", "'",
    "null", "undefined", "NaN", "Infinity", "-1", "0", "1e309", "true", "[]", "{}", "__proto__", "constructor", "prototype",
    "../../etc/passwd", "%00", "%", "%zz", "<script>alert(1)</script>", "' OR 1=1 --", "$where", "${7*7}", "a".repeat(65), "a".repeat(257),
  ) },
  { weight: 1, arbitrary: fc.constantFrom("a".repeat(100_000), "é".repeat(30_000), "😀".repeat(25_000), "\uD800".repeat(5_000), "\u0000".repeat(1_000)) },
  { weight: 3, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ maxLength: 80 }) },
);

/** Number spellings a querystring or header may carry. */
export const oddNumberText: fc.Arbitrary<string> = fc.oneof(
  // Past what a 64-bit column or a safe integer holds, or not finite at all.
  fc.constantFrom("Infinity", "1e309", "99999999999999999999999", "9223372036854775808", "18446744073709551616", "1e19", "9007199254740993"),
  fc.bigInt({ min: 2n ** 53n, max: 10n ** 40n }).map(String),
  fc.constantFrom(
    "Infinity", "-Infinity", "+Infinity", "NaN", "1e309", "-1e309", "99999999999999999999999", "9007199254740993", "-9007199254740993",
    "2147483648", "-2147483649", "4294967296", "1.5", "-0", "0x10", "0b1", "1e-400", "1e2", " 7", "7 ", "+7", "", "--1", "1,2", "1_000",
    "٣", "１", "1e", ".5", "5.", "0.0000001", "-1",
  ),
  fc.double().map(String),
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
);

/** Numbers past what a column, a page or a JSON reader holds. */
export const oddNumber: fc.Arbitrary<number | RawJson> = fc.oneof(
  fc.constantFrom(0, -1, -0, 1.5, 2 ** 31, 2 ** 32, 2 ** 53, 2 ** 53 + 2, -(2 ** 53), 1e308, -1e308, 5e-324, Number.MAX_VALUE),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.constantFrom("1e999", "-1e999", "1e-999", "123456789012345678901234567890", "-0.0", "1E400", "1.0000000000000002").map((t) => new RawJson(t)),
);

/** Any value of a wrong type, nested ones included. */
export const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(null, true, false, 0, "", [], {}, [null], { "": null }, [[[[[[[]]]]]]]) },
  { weight: 3, arbitrary: oddString },
  { weight: 3, arbitrary: oddNumber },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.array(oddString, { maxLength: 5 }) },
);

/** Names of fields nobody declared. */
export const extraKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom("__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "", " ", "id", "workspaceId", "appId", "role", "isAdmin", "createdAt", "a.b", "a[0]"),
  fc.string({ maxLength: 20 }),
);

function typesOf(schema: JsonSchema): string[] {
  const type = schema.type;
  return Array.isArray(type) ? (type as string[]) : typeof type === "string" ? [type] : [];
}

/** Date-times `format: "date-time"` lets through that are unusual all the same. */
export const ODD_DATE_TIMES = [
  "2016-12-31T23:59:60Z",
  "2016-12-31T23:59:60.5Z",
  "2025-01-01t00:00:00z",
  "2025-01-01 00:00:00Z",
  "0000-01-01T00:00:00Z",
  "9999-12-31T23:59:59.999999999+14:00",
  "2025-01-01T00:00:00-23:59",
];

function stringFromSchema(schema: JsonSchema): fc.Arbitrary<string> {
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as string[]));
  if (typeof schema.const === "string") return fc.constant(schema.const);
  const minLength = typeof schema.minLength === "number" ? schema.minLength : 0;
  const maxLength = typeof schema.maxLength === "number" ? schema.maxLength : 60;
  switch (schema.format) {
    case "date-time":
      return fc.oneof(
        { weight: 4, arbitrary: fc.date({ min: new Date("1990-01-01T00:00:00Z"), max: new Date("2090-01-01T00:00:00Z"), noInvalidDate: true }).map((d) => d.toISOString()) },
        // RFC 3339 spellings JavaScript's Date may not read: leap seconds, lower case, a space, far offsets and years.
        { weight: 1, arbitrary: fc.constantFrom(...ODD_DATE_TIMES) },
      );
    case "email":
      return fc.oneof(fc.constantFrom("someone@example.com", "a.b+c@example.org"), fc.emailAddress());
    case "uri":
    case "url":
      return fc.webUrl();
  }
  if (typeof schema.pattern === "string") {
    try {
      return fc.stringMatching(new RegExp(schema.pattern), { size: "xsmall" });
    } catch {
      // A pattern fast-check cannot read: plain text below.
    }
  }
  return fc.oneof(
    { weight: 6, arbitrary: fc.string({ minLength, maxLength: Math.min(maxLength, Math.max(minLength, 40)) }) },
    { weight: 1, arbitrary: fc.constant("x".repeat(Math.max(minLength, maxLength))) },
  );
}

function numberFromSchema(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min = typeof schema.minimum === "number" ? schema.minimum : -1_000_000;
  const max = typeof schema.maximum === "number" ? schema.maximum : 1_000_000;
  const edges = fc.constantFrom(min, max);
  const inside = integer
    ? fc.integer({ min: Math.max(min, -1_000_000_000), max: Math.min(max, 1_000_000_000) })
    : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
  return fc.oneof({ weight: 4, arbitrary: inside }, { weight: 1, arbitrary: edges });
}

/** Known values (fixture ids, keys) by field name, so generated requests reach the handlers. */
export type Hints = Readonly<Record<string, readonly string[]>>;

/**
 * Values a route's JSON schema accepts (or nearly: patterns are followed, cross-field rules are
 * not), preferring known values for fields named in `hints`.
 */
export function validFromSchema(schema: JsonSchema, hints: Hints = {}, name = "", depth = 0): fc.Arbitrary<unknown> {
  const hinted = hints[name];
  const plain = plainFromSchema(schema, hints, name, depth);
  if (hinted === undefined || hinted.length === 0 || !typesOf(schema).includes("string")) return plain;
  return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...hinted) }, { weight: 1, arbitrary: plain });
}

function plainFromSchema(schema: JsonSchema, hints: Hints, name: string, depth: number): fc.Arbitrary<unknown> {
  for (const key of ["anyOf", "oneOf"]) {
    const options = schema[key];
    if (Array.isArray(options) && options.length > 0) {
      return fc.oneof(...options.map((option) => validFromSchema(option as JsonSchema, hints, name, depth)));
    }
  }
  if ("const" in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return fc.constantFrom(...(schema.enum as unknown[]));
  const types = typesOf(schema);
  if (types.length > 1) return fc.oneof(...types.map((type) => validFromSchema({ ...schema, type }, hints, name, depth)));
  switch (types[0]) {
    case "string":
      return stringFromSchema(schema);
    case "integer":
      return numberFromSchema(schema, true);
    case "number":
      return numberFromSchema(schema, false);
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array": {
      const items = (schema.items ?? {}) as JsonSchema;
      const minLength = typeof schema.minItems === "number" ? schema.minItems : 0;
      const maxLength = Math.min(typeof schema.maxItems === "number" ? schema.maxItems : 4, Math.max(minLength, 4));
      if (depth > 4) return fc.constant([]);
      return fc.array(validFromSchema(items, hints, name, depth + 1), { minLength, maxLength });
    }
    case "object": {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
      if (depth > 4) return fc.constant({});
      const model = Object.fromEntries(Object.entries(properties).map(([key, sub]) => [key, validFromSchema(sub, hints, key, depth + 1)]));
      return fc.record(model, { requiredKeys: required.filter((key) => key in model) });
    }
  }
  return fc.jsonValue({ maxDepth: 2 });
}

type PathStep = string | number;

function paths(value: unknown, prefix: PathStep[] = [], out: PathStep[][] = []): PathStep[][] {
  out.push(prefix);
  if (Array.isArray(value)) value.forEach((item, i) => paths(item, [...prefix, i], out));
  else if (value !== null && typeof value === "object" && !(value instanceof RawJson)) {
    for (const [key, item] of Object.entries(value)) paths(item, [...prefix, key], out);
  }
  return out;
}

function clone(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(clone);
  if (value !== null && typeof value === "object" && !(value instanceof RawJson)) {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) Object.defineProperty(copy, key, { value: clone(item), enumerable: true, writable: true, configurable: true });
    return copy;
  }
  return value;
}

function containerAt(root: unknown, path: PathStep[]): unknown {
  let node = root;
  for (const step of path) node = (node as Record<PathStep, unknown>)[step];
  return node;
}

/** One way to spoil a value: at a position chosen by `at`. */
export type Mutation =
  | { kind: "replace"; at: number; value: unknown }
  | { kind: "delete"; at: number }
  | { kind: "extra"; at: number; key: string; value: unknown };

/** Mutations of any kind, whose `at` is reduced modulo the value's positions when applied. */
export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant("replace" as const), at: fc.nat(), value: oddValue }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("delete" as const), at: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("extra" as const), at: fc.nat(), key: extraKey, value: oddValue }) },
);

/**
 * Applies `mutations` to a copy of `value`: each replaces, deletes or adds one field somewhere
 * in it (the root included), so valid requests turn into nearly valid ones.
 */
export function mutate(value: unknown, mutations: readonly Mutation[]): unknown {
  let root = clone(value);
  for (const m of mutations) {
    // Constants of the generators are shared objects: insert copies, or a later mutation could
    // put a value inside itself.
    const value = clone("value" in m ? m.value : undefined);
    const all = paths(root);
    const path = all[m.at % all.length] ?? [];
    if (m.kind === "replace") {
      if (path.length === 0) root = value;
      else (containerAt(root, path.slice(0, -1)) as Record<PathStep, unknown>)[path[path.length - 1]!] = value;
    } else if (m.kind === "delete") {
      if (path.length === 0) continue;
      const parent = containerAt(root, path.slice(0, -1));
      const last = path[path.length - 1]!;
      if (Array.isArray(parent)) parent.splice(Number(last), 1);
      else delete (parent as Record<PathStep, unknown>)[last];
    } else {
      const target = containerAt(root, path);
      if (target !== null && typeof target === "object" && !Array.isArray(target) && !(target instanceof RawJson)) {
        Object.defineProperty(target, m.key, { value, enumerable: true, writable: true, configurable: true });
      } else if (Array.isArray(target)) {
        target.push(value);
      }
    }
  }
  return root;
}
