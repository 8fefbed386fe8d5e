import { ApiError } from "../http/errors.js";

/**
 * Opaque page cursors: base64url JSON tagged with what they were issued for, so a cursor from
 * another sort or query is refused (400 `invalid_cursor`) instead of silently skipping rows.
 */
export function encodeCursor(value: Record<string, string | number>): string {
  return Buffer.from(JSON.stringify(value), "utf8").toString("base64url");
}

/**
 * Decodes a cursor and checks every field `shape` names has the expected type. Numbers (offsets,
 * vote counts) must be non-negative safe integers: a forged negative offset would otherwise
 * page differently on each engine.
 */
export function decodeCursor<T extends Record<string, string | number>>(
  cursor: string,
  shape: { [K in keyof T]: "string" | "number" },
  expect: Partial<T> = {},
): T {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw new ApiError("invalid_cursor");
  }
  if (typeof value !== "object" || value === null) throw new ApiError("invalid_cursor");
  const record = value as Record<string, unknown>;
  for (const [key, type] of Object.entries(shape)) {
    const field = record[key];
    if (typeof field !== type || (type === "number" && !(Number.isSafeInteger(field) && (field as number) >= 0))) throw new ApiError("invalid_cursor");
  }
  for (const [key, expected] of Object.entries(expect)) {
    if (record[key] !== expected) throw new ApiError("invalid_cursor");
  }
  return record as T;
}
