import { IMAGE_TYPES } from "./image-types.js";

/** Data types a stored object keeps as its Content-Type; anything else is served as octet-stream. */
const SAFE_OBJECT_TYPES = new Set([
  "text/plain",
  "text/csv",
  "application/json",
  "application/x-ndjson",
  "application/zip",
  "application/gzip",
  "application/x-gzip",
  "application/x-tar",
  "application/pdf",
  "application/octet-stream",
  ...IMAGE_TYPES,
]);

/** The Content-Type an object upload is stored and served with. */
export function objectMimeType(declared: string): string {
  const base = declared.split(";")[0]!.trim().toLowerCase();
  return SAFE_OBJECT_TYPES.has(base) ? base : "application/octet-stream";
}
