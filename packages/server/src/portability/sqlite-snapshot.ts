import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { BackupUsageError } from "./backup-error.js";
import { fsyncFile } from "./fsync.js";

/** The file of a `sqlite:` URL, or undefined for PostgreSQL. */
export function sqliteFile(databaseUrl: string): string | undefined {
  if (!databaseUrl.startsWith("sqlite:")) return undefined;
  const file = databaseUrl.slice("sqlite:".length);
  if (file === "" || file === ":memory:") throw new BackupUsageError("An in-memory database cannot be backed up.");
  return path.resolve(file);
}

/**
 * Copies the SQLite database at `source` into `destination` with SQLite's online backup API, in
 * one step: the copy is the database as of one moment (a read transaction, which in WAL mode
 * does not hold writers up), whatever the server commits meanwhile.
 */
export async function snapshotSqlite(source: string, destination: string): Promise<void> {
  if (!fs.existsSync(source)) throw new BackupUsageError(`There is no database at ${source}.`);
  const db = new SQLite(source, { fileMustExist: true });
  try {
    db.pragma("busy_timeout = 5000");
    // The first step only sizes the copy; the second copies every page under one read lock.
    await db.backup(destination, { progress: () => 0x7fffffff });
  } finally {
    db.close();
  }
  fsyncFile(destination);
}

const STORED_UPLOADS = "select storage_key from uploads where status = 'uploaded' order by storage_key";

/** The storage keys of every stored upload a SQLite snapshot lists, in key order. */
export function snapshotUploadKeys(file: string): string[] {
  const db = new SQLite(file, { fileMustExist: true });
  try {
    return db.prepare<[], { storage_key: string }>(STORED_UPLOADS).all().map((r) => r.storage_key);
  } finally {
    db.close();
  }
}
