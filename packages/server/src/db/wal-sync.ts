import fs from "node:fs";

/** Makes what SQLite wrote to a WAL file durable, from libuv's thread pool. */
export interface WalSync {
  /** fdatasync of the WAL file; settles once everything written before the call is on disk. */
  sync(): Promise<void>;
  close(): void;
}

/**
 * Syncs `walFile` through one descriptor kept open (opened on first use): a single thread-pool
 * hop per sync, where open + datasync + close took three round trips through a busy event loop.
 * SQLite keeps a WAL file in place while a connection is open, so the descriptor stays valid;
 * a WAL that does not exist yet holds nothing to sync.
 */
export function walSync(walFile: string): WalSync {
  let fd: number | undefined;
  return {
    sync: () =>
      new Promise<void>((resolve, reject) => {
        if (fd === undefined) {
          try {
            fd = fs.openSync(walFile, "r");
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code === "ENOENT") return resolve();
            return reject(error as Error);
          }
        }
        fs.fdatasync(fd, (error) => (error === null ? resolve() : reject(error)));
      }),
    close: () => {
      if (fd !== undefined) fs.closeSync(fd);
      fd = undefined;
    },
  };
}
