import fs from "node:fs";
import path from "node:path";
import { BackupUsageError } from "./backup-error.js";

/** The backup format version written in `manifest.json`. */
export const BACKUP_VERSION = 1;
/** The snapshot's file name inside a backup folder. */
export const BACKUP_DATABASE_FILE = "tidings.db";
export const MANIFEST = "manifest.json";

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
