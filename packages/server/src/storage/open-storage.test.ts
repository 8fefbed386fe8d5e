import path from "node:path";
import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadConfig } from "../config.js";
import { startTestS3Server, type TestS3Server } from "@tidings/testing/s3-server";
import { LocalDiskStorage } from "./local-disk-storage.js";
import { openStorage } from "./open-storage.js";
import { S3Storage } from "./s3-storage.js";

describe("openStorage", () => {
  let s3: TestS3Server;
  beforeAll(async () => {
    s3 = await startTestS3Server();
  });
  afterAll(() => s3.close());

  it("keeps uploads in DATA_DIR/uploads unless STORAGE_URL says otherwise", async () => {
    const storage = await openStorage(loadConfig({ DATA_DIR: "/srv/tidings" }));
    expect(storage).toBeInstanceOf(LocalDiskStorage);
    expect((storage as LocalDiskStorage).root).toBe(path.join("/srv/tidings", "uploads"));
    const elsewhere = await openStorage(loadConfig({ DATA_DIR: "/srv/tidings", STORAGE_URL: "file:///mnt/shared/uploads" }));
    expect((elsewhere as LocalDiskStorage).root).toBe("/mnt/shared/uploads");
  });

  it("reaches the bucket of an s3:// STORAGE_URL with the keys from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY", async () => {
    const env = s3.env("prod/uploads");
    vi.stubEnv("AWS_ACCESS_KEY_ID", env.AWS_ACCESS_KEY_ID);
    vi.stubEnv("AWS_SECRET_ACCESS_KEY", env.AWS_SECRET_ACCESS_KEY);
    const storage = await openStorage(loadConfig(env));
    try {
      expect(storage).toBeInstanceOf(S3Storage);
      await storage.ping?.();
      await storage.put("ab/upl_env", Readable.from([Buffer.from("through the environment")]));
      expect(await s3.objects()).toEqual([{ key: "prod/uploads/ab/upl_env", size: 23 }]);
      expect(await text((await storage.get("ab/upl_env"))!)).toBe("through the environment");
    } finally {
      vi.unstubAllEnvs();
      await storage.close?.();
    }
  });
});
