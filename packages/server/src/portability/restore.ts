import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { STORAGE_KEY_SHAPE, type ObjectStorage } from "../storage/object-storage.js";
import { BackupUsageError } from "./backup-error.js";
import { BACKUP_DATABASE_FILE, readManifest, type BackupManifest } from "./backup-manifest.js";
import { fsyncDir, fsyncFile } from "./fsync.js";
import { sqliteFile } from "./sqlite-snapshot.js";

export interface RestoreOptions {
  /** Replace a database file that already holds data. @default false */
  force?: boolean;
  /** Called as uploads are stored: files done and the total. */
  onProgress?: (done: number, total?: number) => void;
}

/** Every upload file of a backup folder, as storage keys. */
function backedUpKeys(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root, { recursive: true })
    .map(String)
    .filter((entry) => fs.statSync(path.join(root, entry)).isFile())
    .map((entry) => entry.split(path.sep).join("/"))
    .filter((key) => STORAGE_KEY_SHAPE.test(key))
    .sort();
}

/**
 * Restores a backup folder: the SQLite snapshot (checked with `PRAGMA integrity_check` first)
 * becomes the database file of `databaseUrl`, and every backed-up upload is put into `storage`.
 * For a PostgreSQL backup only the uploads are restored (the database comes back with
 * `pg_restore`). Run it with the server stopped.
 *
 * @example
 * ```ts
 * await restore("/backups/2026-11-24", config.databaseUrl, storage, { force: true });
 * ```
 */
export async function restore(dir: string, databaseUrl: string, storage: ObjectStorage, options: RestoreOptions = {}): Promise<{ manifest: BackupManifest; uploads: number }> {
  const manifest = readManifest(dir);
  const root = path.resolve(dir);
  const file = sqliteFile(databaseUrl);
  if (manifest.database === "sqlite") {
    if (file === undefined) throw new BackupUsageError("This backup holds a SQLite database, but DATABASE_URL names PostgreSQL.");
    const snapshot = path.join(root, BACKUP_DATABASE_FILE);
    const check = new SQLite(snapshot, { readonly: true, fileMustExist: true });
    let verdict: string;
    try {
      verdict = String(check.pragma("integrity_check", { simple: true }));
    } finally {
      check.close();
    }
    if (verdict !== "ok") throw new BackupUsageError(`The backed-up database fails its integrity check: ${verdict}`);
    if (fs.existsSync(file) && fs.statSync(file).size > 0 && options.force !== true) {
      throw new BackupUsageError(`${file} already exists: stop the server and pass --force to replace it.`);
    }
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const partial = `${file}.restore-${process.pid}.part`;
    fs.copyFileSync(snapshot, partial);
    fsyncFile(partial);
    // A WAL left by the old database would be replayed into the restored one.
    for (const suffix of ["-wal", "-shm"]) fs.rmSync(`${file}${suffix}`, { force: true });
    fs.renameSync(partial, file);
    fsyncDir(path.dirname(file));
  }
  const keys = backedUpKeys(path.join(root, "uploads"));
  options.onProgress?.(0, keys.length);
  for (const [i, key] of keys.entries()) {
    await storage.put(key, fs.createReadStream(path.join(root, "uploads", ...key.split("/"))));
    options.onProgress?.(i + 1, keys.length);
  }
  return { manifest, uploads: keys.length };
}
