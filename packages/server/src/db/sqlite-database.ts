import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import type { LogEvent } from "kysely";
import { BACKSTOP_CHECKPOINT_PAGES, startCheckpointer } from "./checkpointer.js";
import { sqliteDirectRunner } from "./direct-statements.js";
import { sqliteKysely } from "./sqlite-connection.js";
import { createGroupCommit } from "./group-commit.js";
import { walSync } from "./wal-sync.js";

/**
 * The SQLite side of `openDatabase`: `file` in WAL mode, checkpointed from a worker thread,
 * synchronous=FULL, foreign keys on, and shared transactions whose WAL is synced off the event loop.
 */
export function openSqlite(file: string, log: { log?: (event: LogEvent) => void }) {
  if (file !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma("journal_mode = WAL");
  // FULL makes every acknowledged commit survive a power loss, not just a process crash.
  sqlite.pragma("synchronous = FULL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  const onDisk = file !== ":memory:" && file !== "";
  // A thread of its own copies the WAL into the file (see checkpointer.ts); this connection
  // checkpoints only as a backstop, or entirely again if that thread fails.
  if (onDisk) sqlite.pragma(`wal_autocheckpoint = ${BACKSTOP_CHECKPOINT_PAGES}`);
  const checkpointer = onDisk
    ? startCheckpointer(file, () => {
        if (sqlite.open) sqlite.pragma("wal_autocheckpoint = 1000");
      })
    : undefined;
  const { kysely, statements } = sqliteKysely(sqlite, log);
  const wal = onDisk ? walSync(`${file}-wal`) : undefined;
  return {
    kysely,
    sharedTransaction: createGroupCommit(kysely, { direct: sqliteDirectRunner(statements), ...(wal === undefined ? {} : { sync: wal.sync }) }),
    ...(checkpointer === undefined ? {} : { checkpointer }),
    destroy: async () => {
      // The checkpoint thread's connection first: the last connection to close folds the WAL in.
      await checkpointer?.close();
      await kysely.destroy();
      wal?.close();
    },
  };
}
