import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { STORAGE_KEY_SHAPE, type ObjectStorage } from "./object-storage.js";

function fileOf(root: string, key: string): string {
  // Keys are server-generated; the shape check is a second lock against traversal.
  if (!STORAGE_KEY_SHAPE.test(key)) throw new Error(`invalid storage key: ${key}`);
  return path.join(root, ...key.split("/"));
}

/**
 * Objects as files under `root` (the server uses `DATA_DIR/uploads`). A write goes to a
 * `.part` file renamed into place at the end, so readers never see half an object and a failed
 * write leaves no file. The folder is created on first write, not at start.
 *
 * @example
 * ```ts
 * const storage = new LocalDiskStorage(path.join(config.dataDir, "uploads"));
 * ```
 */
export class LocalDiskStorage implements ObjectStorage {
  constructor(readonly root: string) {}

  async put(key: string, source: Readable): Promise<void> {
    const file = fileOf(this.root, key);
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    const part = `${file}.${randomBytes(6).toString("hex")}.part`;
    try {
      // flush: the data reaches the disk before the rename, so an upload the server acknowledged
      // survives a crash with its bytes, not as an empty file.
      await pipeline(source, fs.createWriteStream(part, { flags: "wx", flush: true }));
      await fs.promises.rename(part, file);
    } catch (error) {
      await fs.promises.rm(part, { force: true });
      throw error;
    }
  }

  async get(key: string): Promise<Readable | undefined> {
    const file = fileOf(this.root, key);
    let handle: fs.promises.FileHandle;
    try {
      handle = await fs.promises.open(file, "r");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
    return handle.createReadStream();
  }

  async delete(key: string): Promise<void> {
    await fs.promises.rm(fileOf(this.root, key), { force: true });
  }

  /** Resolves when `root`, or the nearest folder above it that exists (it is made on first write), is a writable folder. */
  async ping(): Promise<void> {
    let dir = path.resolve(this.root);
    for (;;) {
      try {
        const stat = await fs.promises.stat(dir);
        if (!stat.isDirectory()) throw new Error(`${dir} is not a folder`);
        await fs.promises.access(dir, fs.constants.W_OK);
        return;
      } catch (error) {
        const parent = path.dirname(dir);
        if ((error as NodeJS.ErrnoException).code !== "ENOENT" || parent === dir) throw error;
        dir = parent;
      }
    }
  }
}
