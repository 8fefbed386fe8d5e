import { createHash } from "node:crypto";
import { once } from "node:events";
import { PassThrough } from "node:stream";
import type { ObjectStorage } from "../storage/object-storage.js";
import { ArchiveError } from "./archive-error.js";
import type { Pending } from "./archive-rows.js";

/** An attachment whose bytes are arriving in `file` lines, streamed into storage as they come. */
export class IncomingFile {
  /** The number of the next part. */
  #next = 0;
  #size = 0;
  readonly #hash = createHash("sha256");
  #stream?: PassThrough;
  #stored?: Promise<void>;

  /** `skip`: the upload is here already, so its bytes are read and not stored. */
  constructor(
    readonly upload: Pending,
    private skip: boolean,
    private readonly storage: ObjectStorage,
  ) {}

  /** Whether any part came. */
  get started(): boolean {
    return this.#next > 0;
  }

  /** Takes one `file` line's part, which must be the next one. */
  async write(value: Record<string, unknown>, line: number): Promise<void> {
    if (value.part !== this.#next || typeof value.data !== "string") throw new ArchiveError(`file part ${String(value.part)} out of order`, line);
    this.#next += 1;
    if (this.skip) return;
    const bytes = Buffer.from(value.data, "base64");
    this.#size += bytes.length;
    this.#hash.update(bytes);
    if (this.#stream === undefined) {
      const stream = new PassThrough();
      this.#stream = stream;
      this.#stored = this.storage.put(String(this.upload.row.storageKey), stream);
      // Rejections are awaited in finish; this keeps an early one from going unhandled.
      this.#stored.catch(() => {});
    }
    if (!this.#stream.write(bytes)) await Promise.race([once(this.#stream, "drain"), this.#stored]);
  }

  /**
   * Ends the file once its bytes are stored and match its row's size and SHA-256. True when it
   * stored a file; an upload with no file lines had none to export.
   */
  async finish(line: number): Promise<boolean> {
    if (this.#next === 0) this.skip = true;
    if (this.#stream !== undefined) {
      this.#stream.end();
      await this.#stored;
    }
    const row = this.upload.row;
    if (!this.skip && typeof row.size === "number" && row.size !== this.#size) {
      throw new ArchiveError(`attachment ${String(row.id)} has ${this.#size} bytes, its row says ${row.size}`, line);
    }
    if (!this.skip && typeof row.sha256 === "string" && row.sha256 !== this.#hash.digest("hex")) {
      throw new ArchiveError(`attachment ${String(row.id)} does not match its SHA-256`, line);
    }
    return !this.skip;
  }

  /** Stops storing (the import failed). */
  destroy(error: Error): void {
    this.#stream?.destroy(error);
  }
}
