import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestS3Server, type TestS3Server } from "@tidings/testing/s3-server";
import { normalizePrefix } from "./object-storage.js";
import { S3Storage } from "./s3-storage.js";

const MiB = 1024 * 1024;

/** `size` bytes in 64 KiB chunks made on demand, so the test itself holds almost nothing. */
function generated(size: number, fill = 7): Readable {
  const chunk = Buffer.alloc(64 * 1024, fill);
  let left = size;
  return new Readable({
    read() {
      if (left <= 0) return void this.push(null);
      const n = Math.min(left, chunk.length);
      left -= n;
      this.push(n === chunk.length ? chunk : chunk.subarray(0, n));
    },
  });
}

/** A stream that yields `bytes` and then fails, like a client that went away. */
function failingAfter(bytes: number): Readable {
  const body = generated(bytes);
  return Readable.from(
    (async function* () {
      for await (const chunk of body) yield chunk as Buffer;
      throw new Error("client went away");
    })(),
  );
}

describe("S3Storage on an S3-protocol server", () => {
  let s3: TestS3Server;
  let storage: S3Storage;
  beforeAll(async () => {
    s3 = await startTestS3Server();
    storage = s3.storage("tidings/uploads");
  });
  afterAll(() => s3.close());

  it("stores a stream under its prefixed key, reads it back, and deletes it idempotently", async () => {
    await storage.put("ab/upl_a", Readable.from([Buffer.from("hello "), Buffer.from("world")]));
    expect(await s3.objects()).toEqual([{ key: "tidings/uploads/ab/upl_a", size: 11 }]);
    expect(await text((await storage.get("ab/upl_a"))!)).toBe("hello world");
    expect(await storage.size("ab/upl_a")).toBe(11);
    await storage.delete("ab/upl_a");
    await storage.delete("ab/upl_a");
    expect(await storage.get("ab/upl_a")).toBeUndefined();
    expect(await s3.objects()).toEqual([]);
  });

  it("answers undefined for a missing object", async () => {
    expect(await storage.get("ab/nothing")).toBeUndefined();
    expect(await storage.size("ab/nothing")).toBeUndefined();
  });

  it("leaves no object when the stream fails, whether in its first part or after a part went up", async () => {
    await expect(storage.put("ab/upl_small", failingAfter(1000))).rejects.toThrow("client went away");
    // 6 MiB: the first 5 MiB part is uploaded before the failure, so a multipart upload was open.
    await expect(storage.put("ab/upl_big", failingAfter(6 * MiB))).rejects.toThrow("client went away");
    expect(await s3.objects()).toEqual([]);
    expect(await storage.get("ab/upl_big")).toBeUndefined();
  });

  it("streams a large file both ways with bounded memory", async () => {
    const size = 48 * MiB;
    // What the adapter holds is what it pulled from the source and has not yet sent.
    let pulled = 0;
    const source = generated(size).on("data", (chunk: Buffer) => (pulled += chunk.length));
    const sentBefore = s3.bytesReceived();
    let held = 0;
    const sample = setInterval(() => {
      held = Math.max(held, pulled - (s3.bytesReceived() - sentBefore));
    }, 2);
    try {
      await storage.put("ab/upl_large", source);
    } finally {
      clearInterval(sample);
    }
    // One 5 MiB part plus socket buffers; a copy of the whole file would be 48 MiB.
    expect(held).toBeGreaterThan(0);
    expect(held).toBeLessThan(12 * MiB);
    expect(await s3.objects()).toEqual([{ key: "tidings/uploads/ab/upl_large", size }]);

    const hash = createHash("sha256");
    let read = 0;
    for await (const chunk of (await storage.get("ab/upl_large"))!) {
      hash.update(chunk as Buffer);
      read += (chunk as Buffer).length;
    }
    const expected = createHash("sha256");
    for await (const chunk of generated(size)) expected.update(chunk as Buffer);
    expect({ read, sha256: hash.digest("hex") }).toEqual({ read: size, sha256: expected.digest("hex") });
    await storage.delete("ab/upl_large");
  });

  it("rejects and releases the stream when the service refuses the write", async () => {
    const missing = new S3Storage({
      bucket: "no-such-bucket",
      prefix: "",
      endpoint: s3.endpoint,
      region: "us-east-1",
      forcePathStyle: true,
      credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    });
    for (const size of [1000, 6 * MiB]) {
      const source = generated(size);
      await expect(missing.put("ab/upl_nowhere", source)).rejects.toThrow();
      expect(source.destroyed, `${size} bytes`).toBe(true);
    }
    await missing.close();
  });

  it("answers a ping while the bucket is there and refuses one for a missing bucket", async () => {
    await expect(storage.ping()).resolves.toBeUndefined();
    const other = new S3Storage({
      bucket: "no-such-bucket",
      prefix: "",
      endpoint: s3.endpoint,
      region: "us-east-1",
      forcePathStyle: true,
      credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    });
    await expect(other.ping()).rejects.toThrow();
    await other.close();
  });

  it("refuses keys outside the key shape", async () => {
    for (const key of ["../etc/passwd", "a/../../b", "/abs", "a\\b", "", "a//b"]) {
      await expect(storage.put(key, Readable.from([Buffer.from("x")]))).rejects.toThrow("invalid storage key");
    }
    expect(await s3.objects()).toEqual([]);
  });
});

describe("normalizePrefix", () => {
  it("trims slashes and refuses empty, dot and dot-dot segments", () => {
    expect(normalizePrefix("")).toBe("");
    expect(normalizePrefix("/tidings/uploads/")).toBe("tidings/uploads");
    for (const bad of ["a//b", "a/../b", "./a", "a b", "a?b"]) expect(() => normalizePrefix(bad)).toThrow("invalid storage prefix");
  });
});
