import fc from "fast-check";
import { CamelCasePlugin, type UnknownRow } from "kysely";
import { describe, expect, it } from "vitest";
import { ShapedCamelCase } from "./postgres-rows.js";

/** Column names as SQL and `pg` may name them, the awkward ones included. */
const column = fc.oneof(
  fc.constantFrom("id", "app_id", "vote_count", "a_b", "aB", "x_2", "UPPER_CASE", "__proto__", "constructor", "toString", "", "_lead", "trail_", "a__b", 'quo"te', "back\\slash", "naïve_café", "n"),
  fc.string({ maxLength: 12 }),
);
/** What a row's value may be: JSON (objects and arrays are renamed inside), dates, bytes, nulls. */
const value = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.date({ noInvalidDate: true }),
  fc.uint8Array({ maxLength: 4 }).map((bytes) => Buffer.from(bytes)),
  fc.constant(null),
  fc.dictionary(column, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
);
/** A result as node-postgres gives it: every row with the same columns, in the same order. */
const result = fc
  .uniqueArray(column, { maxLength: 8 })
  .chain((columns) => fc.array(fc.tuple(...columns.map(() => value)), { maxLength: 5 }).map((tuples) => tuples.map((values) => {
    const row: UnknownRow = {};
    columns.forEach((c, i) => Object.defineProperty(row, c, { value: values[i], enumerable: true, writable: true, configurable: true }));
    return row;
  })));

/**
 * A value's structure as plain arrays: its prototype, then its own keys in order with their values
 * (`toStrictEqual` would read a row's own `constructor` column as its class).
 */
function structure(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (value instanceof Date) return ["Date", value.getTime()];
  if (Buffer.isBuffer(value)) return ["Buffer", [...value]];
  const proto = Object.getPrototypeOf(value) as unknown;
  const kind = proto === null ? "null" : proto === Object.prototype ? "Object" : proto === Array.prototype ? "Array" : "other";
  return [kind, Object.keys(value).map((k) => [k, structure((value as Record<string, unknown>)[k])])];
}

describe("camel-case rows built per result shape", () => {
  it("renames every result exactly as Kysely's camel-case plugin does: keys, their order, nested JSON and prototypes", async () => {
    const kysely = new CamelCasePlugin();
    const shaped = new ShapedCamelCase();
    await fc.assert(
      fc.asyncProperty(result, async (rows) => {
        const queryId = { queryId: "q" };
        const expected = (await kysely.transformResult({ result: { rows }, queryId })).rows;
        // Twice: the second time through the builder kept for the shape.
        for (let pass = 0; pass < 2; pass++) {
          const actual = (await shaped.transformResult({ result: { rows }, queryId })).rows;
          expect(structure(actual)).toEqual(structure(expected));
        }
      }),
      { numRuns: 500 },
    );
  });

  it("passes results without rows through, as the plugin does", async () => {
    const shaped = new ShapedCamelCase();
    const queryId = { queryId: "q" };
    expect(await shaped.transformResult({ result: { rows: [], numAffectedRows: 3n }, queryId })).toEqual({ rows: [], numAffectedRows: 3n });
  });
});
