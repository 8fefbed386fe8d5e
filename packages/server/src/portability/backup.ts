import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { isoNow, systemClock, type Clock } from "../clock.js";
import { openDatabase } from "../db/database.js";
import type { ObjectStorage } from "../storage/object-storage.js";
import { BackupUsageError } from "./backup-error.js";
import { BACKUP_DATABASE_FILE, BACKUP_VERSION, MANIFEST, type BackupManifest } from "./backup-manifest.js";
import { fsyncDir, fsyncFile } from "./fsync.js";
import { snapshotSqlite, snapshotUploadKeys, sqliteFile } from "./sqlite-snapshot.js";

export interface BackupOptions {
  /** Called as uploads are copied: files done and the total. */
  onProgress?: (done: number, total?: number) => void;
  /** @default systemClock */
  clock?: Clock;
}

/** The storage keys of every stored upload the database of `databaseUrl` lists, in key order. */
async function liveUploadKeys(databaseUrl: string): Promise<string[]> {
  const db = openDatabase(databaseUrl);
  try {
    const rows = await db.kysely.selectFrom("uploads").select("storageKey").where("status", "=", "uploaded").orderBy("storageKey").execute();
    return rows.map((r) => r.storageKey);
  } finally {
    await db.destroy();
  }
}

/**
 * Backs up the instance into the empty folder `outDir`: on SQLite a consistent online snapshot
 * (`tidings.db`, taken while the server runs and takes writes) and every upload that snapshot
 * lists; on PostgreSQL the uploads the database lists (the database itself is `pg_dump`'s job).
 * Uploads land under `uploads/<storage key>`; `manifest.json` is written last.
 *
 * @example
 * ```ts
 * const manifest = await backup(config.databaseUrl, storage, "/backups/2026-11-24");
 * ```
 */
export async function backup(databaseUrl: string, storage: ObjectStorage, outDir: string, options: BackupOptions = {}): Promise<BackupManifest> {
  const out = path.resolve(outDir);
  if (fs.existsSync(out) && fs.readdirSync(out).length > 0) throw new BackupUsageError(`${out} is not empty: back up into a new folder.`);
  fs.mkdirSync(out, { recursive: true });
  const file = sqliteFile(databaseUrl);
  const createdAt = isoNow(options.clock ?? systemClock);
  let keys: string[];
  if (file !== undefined) {
    const snapshot = path.join(out, BACKUP_DATABASE_FILE);
    await snapshotSqlite(file, snapshot);
    // The uploads of the snapshot, not of the live database: the two agree on what exists.
    keys = snapshotUploadKeys(snapshot);
  } else {
    keys = await liveUploadKeys(databaseUrl);
  }
  const missing: string[] = [];
  let bytes = 0;
  options.onProgress?.(0, keys.length);
  for (const [i, key] of keys.entries()) {
    const source = await storage.get(key);
    if (source === undefined) missing.push(key);
    else {
      const target = path.join(out, "uploads", ...key.split("/"));
      fs.mkdirSync(path.dirname(target), { recursive: true });
      await pipeline(source, fs.createWriteStream(target));
      fsyncFile(target);
      bytes += fs.statSync(target).size;
    }
    options.onProgress?.(i + 1, keys.length);
  }
  const manifest: BackupManifest = {
    type: "tidings-backup",
    version: BACKUP_VERSION,
    createdAt,
    database: file === undefined ? "postgres" : "sqlite",
    uploads: keys.length - missing.length,
    bytes,
    missing,
  };
  fs.writeFileSync(path.join(out, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  fsyncFile(path.join(out, MANIFEST));
  fsyncDir(out);
  return manifest;
}
