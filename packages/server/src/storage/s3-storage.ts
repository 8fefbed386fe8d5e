import { DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, HeadObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import type { Readable } from "node:stream";
import { normalizePrefix, STORAGE_KEY_SHAPE, type ObjectStorage } from "./object-storage.js";

/** Where an {@link S3Storage} keeps its objects and how it reaches the service. */
export interface S3StorageOptions {
  bucket: string;
  /** Folder inside the bucket, without leading or trailing slashes; `""` for the bucket's root. */
  prefix: string;
  /** Endpoint of an S3-compatible service (MinIO, R2, Backblaze); null for AWS itself. */
  endpoint: string | null;
  region: string;
  /** `https://endpoint/bucket/key` instead of `https://bucket.endpoint/key` (MinIO needs it). */
  forcePathStyle: boolean;
  /** Explicit keys; absent, the SDK's usual chain applies (`AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY`, profiles, instance roles). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/**
 * Bytes held in memory per upload: one part, filled and then sent before the next is read. S3's
 * smallest part is 5 MiB, so a file up to that size is one PUT and a larger one a multipart upload.
 */
const PART_SIZE = 5 * 1024 * 1024;
const PARTS_IN_FLIGHT = 1;

function isMissing(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === "NoSuchKey" || e.name === "NotFound" || e.$metadata?.httpStatusCode === 404;
}

/**
 * Objects in an S3-compatible bucket (AWS S3, MinIO, Cloudflare R2, Backblaze B2), under
 * `prefix/`. Uploads stream through the SDK's multipart `Upload`, holding at most two 5 MiB
 * parts in memory whatever the file's size; an upload whose stream fails is aborted, so no object
 * appears. Reads stream the object's body.
 *
 * @example
 * ```ts
 * const storage = new S3Storage({ bucket: "tidings", prefix: "uploads", endpoint: "http://127.0.0.1:9000", region: "us-east-1", forcePathStyle: true });
 * await storage.put("ab/upl_0123", fs.createReadStream("shot.png"));
 * ```
 */
export class S3Storage implements ObjectStorage {
  readonly bucket: string;
  readonly prefix: string;
  readonly client: S3Client;

  constructor(options: S3StorageOptions) {
    this.bucket = options.bucket;
    this.prefix = normalizePrefix(options.prefix);
    this.client = new S3Client({
      region: options.region,
      forcePathStyle: options.forcePathStyle,
      ...(options.endpoint === null ? {} : { endpoint: options.endpoint }),
      ...(options.credentials === undefined ? {} : { credentials: options.credentials }),
      // Checksums only where S3 requires them: several S3-compatible services refuse the
      // checksum headers newer SDKs add to every write by default.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
  }

  /** The object key in the bucket of a storage key. */
  objectKey(key: string): string {
    // Keys are server-generated; the shape check is a second lock.
    if (!STORAGE_KEY_SHAPE.test(key)) throw new Error(`invalid storage key: ${key}`);
    return this.prefix === "" ? key : `${this.prefix}/${key}`;
  }

  async put(key: string, source: Readable): Promise<void> {
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: this.objectKey(key), Body: source },
      partSize: PART_SIZE,
      queueSize: PARTS_IN_FLIGHT,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      // The stream's own failure (a refused or truncated file) is the one to report, even when
      // the service also refused to abort the multipart upload.
      const sourceError = source.errored;
      throw sourceError ?? error;
    }
  }

  async get(key: string): Promise<Readable | undefined> {
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      return answer.Body as Readable;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
  }

  /** The stored size of `key` in bytes, or undefined when there is no such object. */
  async size(key: string): Promise<number | undefined> {
    try {
      const answer = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      return answer.ContentLength;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async ping(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }

  close(): Promise<void> {
    this.client.destroy();
    return Promise.resolve();
  }
}
