import type { Readable } from "node:stream";
import type { ObjectStorage } from "../storage/object-storage.js";
import { FILE_PART_BYTES, type ArchiveLine } from "./archive-format.js";

/** The bytes of `source` in parts of exactly `size` bytes (the last one shorter). */
async function* parts(source: Readable, size: number): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let length = 0;
  for await (const chunk of source as AsyncIterable<Buffer | string>) {
    const buffer = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    pending.push(buffer);
    length += buffer.length;
    while (length >= size) {
      const all = Buffer.concat(pending);
      yield all.subarray(0, size);
      pending = [all.subarray(size)];
      length -= size;
    }
  }
  if (length > 0) yield Buffer.concat(pending);
}

/**
 * The `file` lines of an upload: its bytes from storage in base64 parts of {@link FILE_PART_BYTES},
 * the last one marked.
 */
export async function* fileLines(storage: ObjectStorage, upload: Record<string, unknown>): AsyncGenerator<ArchiveLine> {
  const stream = await storage.get(String(upload.storageKey));
  // A file lost from storage leaves its row in the archive, as it is in the database.
  if (stream === undefined) return;
  let part = 0;
  let previous: Buffer | undefined;
  for await (const bytes of parts(stream, FILE_PART_BYTES)) {
    if (previous !== undefined) yield { type: "file", uploadId: String(upload.id), part: part++, data: previous.toString("base64"), last: false };
    previous = bytes;
  }
  yield { type: "file", uploadId: String(upload.id), part, data: (previous ?? Buffer.alloc(0)).toString("base64"), last: true };
}
