import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/** How often the checkpoint thread copies new WAL frames into the database file. */
export const CHECKPOINT_INTERVAL_MS = 100;
/**
 * The WAL size (pages) at which the writing connection checkpoints itself, as SQLite's automatic
 * checkpoint does (its default is 1000). A PASSIVE checkpoint on another thread never catches up
 * with a steady writer, and only a complete checkpoint lets the WAL start over, so the writer
 * still finishes one at this size: what remains is what arrived since the thread's last pass.
 * 10000 pages keep the WAL under about 40 MB.
 */
export const BACKSTOP_CHECKPOINT_PAGES = 10_000;

/** Checkpoints a SQLite database from a worker thread (see {@link startCheckpointer}). */
export interface Checkpointer {
  /**
   * Runs one checkpoint now and answers once it is done; one call at a time (for tests: the
   * thread also runs on its own).
   */
  checkpointNow(): Promise<{ walFrames: number; checkpointed: number }>;
  /** Stops the thread and closes its connection; the database's last close then removes the WAL. */
  close(): Promise<void>;
}

// CommonJS, evaluated in the worker: a file of its own would not exist next to the TypeScript
// sources the tests run from.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
// The driver's errors reach the main thread as plain objects without their message: rethrow them
// as plain Errors that say what failed.
const guarded = (what, run) => {
  try {
    return run();
  } catch (error) {
    throw new Error(what + ": " + (error && error.code ? error.code + " " : "") + (error && error.message ? error.message : String(error)));
  }
};
const db = guarded("opening " + workerData.file, () => new Database(workerData.file, { fileMustExist: true }));
db.pragma("synchronous = FULL");
const checkpoint = () =>
  guarded("checkpointing " + workerData.file, () => {
    const [row] = db.pragma("wal_checkpoint(PASSIVE)");
    return { walFrames: row.log, checkpointed: row.checkpointed };
  });
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on("message", (message) => {
  if (message === "checkpoint") return parentPort.postMessage(checkpoint());
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

const driverPath = createRequire(import.meta.url).resolve("better-sqlite3");

/**
 * Copies a WAL-mode database's committed frames into its file from a worker thread with its own
 * connection, every {@link CHECKPOINT_INTERVAL_MS}. The copy and the fsync of the database file
 * then happen beside the event loop instead of inside whichever commit crossed SQLite's automatic
 * checkpoint size (each of those held the event loop for 15–20 ms here). Durability is unchanged:
 * commits are durable once in the WAL, and a checkpoint syncs the file before the WAL may be
 * reused. `onFailure` runs if the thread dies; the caller then checkpoints on its own again.
 */
export function startCheckpointer(file: string, onFailure: (error: Error) => void, intervalMs = CHECKPOINT_INTERVAL_MS): Checkpointer {
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver: driverPath, file, intervalMs } });
  worker.unref();
  let failed: Error | undefined;
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  worker.once("error", (error) => {
    failed = error;
    onFailure(error);
  });
  return {
    checkpointNow: () =>
      new Promise((resolve, reject) => {
        if (failed !== undefined) return reject(failed);
        const onError = (error: Error) => reject(error);
        worker.once("error", onError);
        worker.once("message", (result: { walFrames: number; checkpointed: number }) => {
          worker.off("error", onError);
          resolve(result);
        });
        worker.postMessage("checkpoint");
      }),
    close: async () => {
      // Unreferenced, the thread would not keep the process alive while it is awaited here, and
      // a process with nothing else left would end before close() returned.
      worker.ref();
      if (failed === undefined) worker.postMessage("close");
      await exited;
    },
  };
}
