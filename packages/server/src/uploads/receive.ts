import { createHash } from "node:crypto";
import { finished, Transform, type Readable } from "node:stream";
import { ApiError } from "../http/errors.js";
import type { ObjectStorage } from "../storage/object-storage.js";
import { SNIFF_BYTES } from "./image-types.js";

/** What was stored. */
export interface ReceivedFile {
  size: number;
  sha256: string;
}

/**
 * Streams `source` into `storage` under `key`, counting and hashing on the way, never holding
 * more than one chunk. Past `maxBytes` the write is aborted with 413 `file_too_large`; an empty
 * file is 400 `invalid_upload`; `inspect` sees the first {@link SNIFF_BYTES} bytes (or all of a
 * shorter file) before they are written and may throw to refuse them. On any failure the
 * storage keeps nothing and the error is rethrown.
 *
 * @example
 * ```ts
 * const { size, sha256 } = await receiveFile(storage, key, part.file, { maxBytes: 1024, inspect: (head) => checkImageBytes(head, claim, name) });
 * ```
 */
export async function receiveFile(
  storage: ObjectStorage,
  key: string,
  source: Readable,
  options: { maxBytes: number; inspect?: (head: Buffer) => void },
): Promise<ReceivedFile> {
  const hash = createHash("sha256");
  let size = 0;
  let held: Buffer[] = [];
  let heldBytes = 0;
  let inspected = options.inspect === undefined;
  const release = (stream: Transform) => {
    if (!inspected) {
      options.inspect?.(Buffer.concat(held));
      inspected = true;
    }
    for (const chunk of held) stream.push(chunk);
    held = [];
  };
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > options.maxBytes) {
        done(new ApiError("file_too_large"));
        return;
      }
      hash.update(chunk);
      try {
        if (inspected) {
          done(null, chunk);
          return;
        }
        held.push(chunk);
        heldBytes += chunk.length;
        if (heldBytes >= SNIFF_BYTES) release(this);
        done();
      } catch (error) {
        done(error as Error);
      }
    },
    flush(done) {
      try {
        if (size === 0) throw new ApiError("invalid_upload", { message: "The file is empty" });
        release(this);
        done();
      } catch (error) {
        done(error as Error);
      }
    },
  });
  // The parser may have failed the part (a truncated body) before this reader was attached.
  if (source.errored !== null && source.errored !== undefined) throw source.errored;
  if (source.destroyed && !source.readableEnded) throw Object.assign(new Error("Premature close"), { code: "ERR_STREAM_PREMATURE_CLOSE" });
  // Also catches a source destroyed later without an error event.
  finished(source, (error) => {
    if (error !== undefined && error !== null) meter.destroy(error);
  });
  // After a refusal the rest of the source is drained, not kept: a multipart parser waiting for
  // its reader would otherwise never reach the end of the request.
  meter.on("error", () => {
    source.unpipe(meter);
    source.resume();
  });
  await storage.put(key, source.pipe(meter));
  return { size, sha256: hash.digest("hex") };
}
