import fs from "node:fs";
import path from "node:path";
import { STORAGE_KEY_SHAPE, type ObjectStorage } from "./object-storage.js";

/** A storage that can tell an object's size, so a copy already there is not sent again. */
export interface SizedStorage extends ObjectStorage {
  /** The stored size of `key` in bytes, or undefined when there is no such object. */
  size(key: string): Promise<number | undefined>;
}

/** One local upload: its storage key and size. */
export interface LocalObject {
  key: string;
  size: number;
}

/** What became of one upload during a migration. */
export interface MigrationStep {
  key: string;
  size: number;
  outcome: "copied" | "skipped" | "failed";
  /** Why a copy failed. */
  error?: string;
}

/** The counts of a finished migration. */
export interface MigrationSummary {
  total: number;
  copied: number;
  skipped: number;
  failed: number;
  bytesCopied: number;
  /** Files under the folder that are not uploads (half-written `.part` files, strays), left alone. */
  ignored: string[];
}

/** How many copies run at once. */
const CONCURRENCY = 4;

/**
 * The uploads stored under `root` by `LocalDiskStorage`, sorted by key, and the files there that
 * are not uploads (left-over `.part` files and anything else outside the key shape).
 *
 * @example
 * ```ts
 * const { objects } = await listLocalUploads("/var/lib/tidings/uploads");
 * ```
 */
export async function listLocalUploads(root: string): Promise<{ objects: LocalObject[]; ignored: string[] }> {
  const objects: LocalObject[] = [];
  const ignored: string[] = [];
  let entries: string[];
  try {
    entries = (await fs.promises.readdir(root, { recursive: true })).map(String);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { objects, ignored };
    throw error;
  }
  for (const entry of entries) {
    const stat = await fs.promises.stat(path.join(root, entry));
    if (!stat.isFile()) continue;
    const key = entry.split(path.sep).join("/");
    if (STORAGE_KEY_SHAPE.test(key)) objects.push({ key, size: stat.size });
    else ignored.push(key);
  }
  objects.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { objects, ignored: ignored.sort() };
}

/**
 * Copies every upload under the local folder `root` into `target` under the same key. An object
 * already in the target with the same size is skipped, so a second run copies nothing and a run
 * that stopped half way picks up where it was. Local files are never changed or removed.
 *
 * @example
 * ```ts
 * const summary = await migrateUploads("/var/lib/tidings/uploads", s3Storage, (step) => console.log(step.outcome, step.key));
 * ```
 */
export async function migrateUploads(
  root: string,
  target: SizedStorage,
  onStep: (step: MigrationStep, summary: MigrationSummary) => void = () => {},
  listed?: { objects: LocalObject[]; ignored: string[] },
): Promise<MigrationSummary> {
  const { objects, ignored } = listed ?? (await listLocalUploads(root));
  const summary: MigrationSummary = { total: objects.length, copied: 0, skipped: 0, failed: 0, bytesCopied: 0, ignored };
  let next = 0;
  const worker = async () => {
    while (next < objects.length) {
      const object = objects[next++]!;
      let step: MigrationStep;
      try {
        if ((await target.size(object.key)) === object.size) {
          step = { ...object, outcome: "skipped" };
        } else {
          await target.put(object.key, fs.createReadStream(path.join(root, ...object.key.split("/"))));
          step = { ...object, outcome: "copied" };
        }
      } catch (error) {
        step = { ...object, outcome: "failed", error: error instanceof Error ? error.message : String(error) };
      }
      summary[step.outcome] += 1;
      if (step.outcome === "copied") summary.bytesCopied += object.size;
      onStep(step, summary);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, objects.length) }, worker));
  return summary;
}
