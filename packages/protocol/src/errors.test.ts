import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { ErrorCodes, isErrorCode } from "./errors.js";

const docs = fs.readFileSync(new URL("../../../docs/errors.md", import.meta.url), "utf8");

function documentedRows(): Map<string, number> {
  const rows = new Map<string, number>();
  for (const match of docs.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \|/gm)) rows.set(match[1]!, Number(match[2]));
  return rows;
}

describe("error-code registry", () => {
  it("is documented in docs/errors.md with the same statuses, and nothing else is", () => {
    const rows = documentedRows();
    expect([...rows.keys()].sort()).toEqual(Object.keys(ErrorCodes).sort());
    for (const [code, definition] of Object.entries(ErrorCodes)) expect(rows.get(code), code).toBe(definition.status);
  });

  it("uses 4xx and 5xx statuses only and knows its own codes", () => {
    for (const definition of Object.values(ErrorCodes)) expect(definition.status).toBeGreaterThanOrEqual(400);
    expect(isErrorCode("validation_failed")).toBe(true);
    expect(isErrorCode("toString")).toBe(false);
  });
});
