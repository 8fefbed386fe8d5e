import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import SQLite from "better-sqlite3";
import { isoNow, systemClock, type Clock } from "../clock.js";
import { openDatabase } from "../db/database.js";
import { STORAGE_KEY_SHAPE, type ObjectStorage } from "../storage/object-storage.js";

/** The backup format version written in `manifest.json`. */
export const BACKUP_VERSION = 1;
/** The snapshot's file name inside a backup folder. */
export const BACKUP_DATABASE_FILE = "tidings.db";
const MANIFEST = "manifest.json";

/** `manifest.json`: written last, so a folder holding it is a complete backup. */
export interface BackupManifest {
  type: "tidings-backup";
  version: number;
  createdAt: string;
  /** `sqlite`: the snapshot is `tidings.db`; `postgres`: only the uploads (see docs/export-backup.md for pg_dump). */
  database: "sqlite" | "postgres";
  uploads: number;
  bytes: number;
  /** Uploads the snapshot lists but storage no longer held (deleted between the snapshot and the copy). */
  missing: string[];
}

/** A backup or restore refused for a reason the operator fixes (exit code 2). */
export class BackupUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BackupUsageError";
  }
}

export interface BackupOptions {
  /** Called as uploads are copied: files done and the total. */
  onProgress?: (done: number, total?: number) => void;
  /** @default systemClock */
  clock?: Clock;
}

/** The file of a `sqlite:` URL, or undefined for PostgreSQL. */
export function sqliteFile(databaseUrl: string): string | undefined {
  if (!databaseUrl.startsWith("sqlite:")) return undefined;
  const file = databaseUrl.slice("sqlite:".length);
  if (file === "" || file === ":memory:") throw new BackupUsageError("An in-memory database cannot be backed up.");
  return path.resolve(file);
}

/** Makes a rename or a new entry in `dir` durable (the directory's own fsync). */
function fsyncDir(dir: string): void {
  fsyncFile(dir);
}

function fsyncFile(file: string): void {
  const fd = fs.openSync(file, "r");
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
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
function snapshotUploadKeys(file: string): string[] {
  const db = new SQLite(file, { fileMustExist: true });
  try {
    return db.prepare<[], { storage_key: string }>(STORED_UPLOADS).all().map((r) => r.storage_key);
  } finally {
    db.close();
  }
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

/** Reads and checks a backup folder's manifest. */
export function readManifest(dir: string): BackupManifest {
  const file = path.join(path.resolve(dir), MANIFEST);
  let manifest: Partial<BackupManifest>;
  try {
    manifest = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<BackupManifest>;
  } catch {
    throw new BackupUsageError(`${dir} is not a complete Tidings backup (no readable ${MANIFEST}).`);
  }
  if (manifest.type !== "tidings-backup" || typeof manifest.version !== "number" || manifest.version > BACKUP_VERSION) {
    throw new BackupUsageError(`${file} is not a Tidings backup this version can restore.`);
  }
  return manifest as BackupManifest;
}

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
