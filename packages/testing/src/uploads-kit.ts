import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DEFAULT_RATE_LIMITS } from "../../server/src/rate-limit/buckets.js";
import type { DialectName } from "../../server/src/db/database.js";
import { startTestS3Server } from "./s3-server.js";
import { createTestApp, type TestApp } from "./test-app.js";
import { testDialects } from "./test-database.js";

/** A text field or a file part of a hand-built multipart body. */
export type Part = { name: string; value: string } | { name: string; filename: string; contentType?: string; data: Buffer };

/**
 * A multipart/form-data body built byte by byte, so tests can also send broken ones.
 *
 * @example
 * ```ts
 * const { payload, headers } = multipartBody([{ name: "appKey", value: key }, { name: "file", filename: "a.png", contentType: "image/png", data: png }]);
 * ```
 */
export function multipartBody(parts: Part[], boundary = "----tidings-test-boundary-7f3a") {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if ("value" in part) {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`));
    } else {
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\n` +
            `Content-Type: ${part.contentType ?? "application/octet-stream"}\r\n\r\n`,
        ),
      );
      chunks.push(part.data, Buffer.from("\r\n"));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}

export const PNG_HEADER = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
export const JPEG_HEADER = Buffer.from("ffd8ffe000104a46494600010100000100010000", "hex");

/** A PNG-looking file of exactly `size` bytes. */
export function png(size = 64): Buffer {
  return Buffer.concat([PNG_HEADER, Buffer.alloc(Math.max(0, size - PNG_HEADER.length), 7)]).subarray(0, size);
}

/** Rate limits high enough that suites never hit them by accident. */
export const RELAXED_LIMITS = Object.fromEntries(
  Object.keys(DEFAULT_RATE_LIMITS).map((bucket) => [bucket, { limit: 100_000, windowSeconds: 60 }]),
) as unknown as typeof DEFAULT_RATE_LIMITS;

/** Where a suite's uploads go: files under a temp `DATA_DIR`, or a bucket on a test S3 server. */
export type TestStorageKind = "disk" | "s3";

/** Every dialect with each storage, for `describe.each`: `[dialect, storage]` pairs. */
export function testDialectsAndStorages(): [DialectName, TestStorageKind][] {
  return testDialects().flatMap((dialect) => (["disk", "s3"] as const).map((kind): [DialectName, TestStorageKind] => [dialect, kind]));
}

/**
 * A test app whose uploads go to a fresh temp `DATA_DIR`, or with `storage: "s3"` to a bucket
 * on an S3-protocol server of its own; both are removed on close.
 *
 * @example
 * ```ts
 * const t = await createUploadTestApp("postgres", {}, "s3");
 * expect(await t.storedFiles()).toEqual([]);
 * ```
 */
export async function createUploadTestApp(dialect: DialectName, overrides: Parameters<typeof createTestApp>[1] = {}, storage: TestStorageKind = "disk") {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tidings-uploads-"));
  const s3 = storage === "s3" ? await startTestS3Server() : undefined;
  const prefix = "tidings/uploads";
  const t: TestApp = await createTestApp(
    dialect,
    { dataDir, rateLimits: { ...RELAXED_LIMITS }, ...overrides },
    s3 === undefined ? {} : { storage: s3.storage(prefix) },
  );
  const uploadsDir = path.join(dataDir, "uploads");
  return {
    ...t,
    dataDir,
    /** Every stored object's key (a path under DATA_DIR/uploads, or a key under the bucket's prefix), sorted. */
    async storedFiles(): Promise<string[]> {
      if (s3 !== undefined) return (await s3.objects()).map((o) => o.key.slice(prefix.length + 1));
      if (!fs.existsSync(uploadsDir)) return [];
      return fs
        .readdirSync(uploadsDir, { recursive: true })
        .map(String)
        .filter((f) => fs.statSync(path.join(uploadsDir, f)).isFile())
        .sort();
    },
    close: async () => {
      await t.close();
      await s3?.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
export type UploadTestApp = Awaited<ReturnType<typeof createUploadTestApp>>;
