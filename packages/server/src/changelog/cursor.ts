import { ApiError } from "../http/errors.js";

/** Opaque keyset cursor over (publishedAt, id), newest first. */
export function encodeFeedCursor(publishedAt: string, id: string): string {
  return Buffer.from(JSON.stringify([publishedAt, id])).toString("base64url");
}

/** The position a cursor names, or 400 `invalid_cursor`. */
export function decodeFeedCursor(cursor: string): { publishedAt: string; id: string } {
  try {
    const value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown;
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === "string" && typeof value[1] === "string" && !Number.isNaN(Date.parse(value[0]))) {
      return { publishedAt: value[0], id: value[1] };
    }
  } catch {
    // fall through
  }
  throw new ApiError("invalid_cursor");
}
