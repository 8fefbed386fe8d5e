import fs from "node:fs";
import path from "node:path";
import { ImportInputError } from "./import-errors.js";

/** A folder of JSON files, read one file at a time (memory holds one page, not the export). */
export interface JsonFolder {
  dir: string;
  /** The files whose names start with `prefix` and end in `.json`, in natural order (page 2 before page 10). */
  files(prefix: string): string[];
  totalBytes: number;
  /** A file's size in bytes. */
  size(file: string): number;
  /** The file's items: a JSON array, or the array under `key` of an object (an API page). */
  read(file: string, key: string): Promise<unknown[]>;
}

/**
 * Opens a folder an operator filled with JSON files. A file that is not JSON, or has no array
 * where one is expected, stops the import before anything is written.
 */
export async function openJsonFolder(dir: string, what: string): Promise<JsonFolder> {
  let names: string[];
  try {
    names = await fs.promises.readdir(dir);
  } catch {
    throw new ImportInputError(`${dir} is not a folder (${what})`);
  }
  const jsonFiles = names.filter((n) => n.toLowerCase().endsWith(".json")).sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
  const sizes = new Map<string, number>();
  for (const name of jsonFiles) sizes.set(name, (await fs.promises.stat(path.join(dir, name))).size);
  const totalBytes = [...sizes.values()].reduce((a, b) => a + b, 0);
  return {
    dir,
    totalBytes,
    size: (file) => sizes.get(file) ?? 0,
    files: (prefix) => jsonFiles.filter((n) => n.toLowerCase().startsWith(prefix)),
    async read(file, key) {
      let parsed: unknown;
      try {
        parsed = JSON.parse((await fs.promises.readFile(path.join(dir, file), "utf8")).replace(/^\uFEFF/, ""));
      } catch (error) {
        throw new ImportInputError(`${file}: not valid JSON (${(error as Error).message})`);
      }
      if (Array.isArray(parsed)) return parsed;
      const inner = parsed !== null && typeof parsed === "object" ? (parsed as Record<string, unknown>)[key] : undefined;
      if (Array.isArray(inner)) return inner;
      throw new ImportInputError(`${file}: expected a JSON array or an object with a "${key}" array`);
    },
  };
}

/** A string field of a JSON object, or null. */
export function text(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return null;
}

/** A nested object of a JSON object, or an empty one. */
export function object(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
