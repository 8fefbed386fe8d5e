import { MAX_SAFE_INTEGER } from "@tidings/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "@tidings/testing/test-app";
import { numericFields, routesOf } from "@tidings/testing/fuzz/openapi-walker";

describe("numbers a client sends", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp("sqlite");
  });
  afterAll(() => t.close());

  it("are bounded on both sides in the OpenAPI document, within 2^53 − 1", () => {
    const fields = routesOf(t.app.swagger()).flatMap((route) =>
      numericFields(route).map((f) => ({ at: `${route.method} ${route.path} ${f.where}`, minimum: f.schema.minimum, maximum: f.schema.maximum })),
    );
    expect(fields.length).toBeGreaterThan(20);
    const unbounded = fields.filter(
      (f) =>
        typeof f.minimum !== "number" ||
        typeof f.maximum !== "number" ||
        Math.abs(f.minimum) > MAX_SAFE_INTEGER ||
        Math.abs(f.maximum) > MAX_SAFE_INTEGER,
    );
    expect(unbounded.map((f) => f.at)).toEqual([]);
  });
});
