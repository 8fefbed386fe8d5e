import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LocalDiskStorage } from "./local-disk-storage.js";

describe("LocalDiskStorage", () => {
  let root: string;
  let storage: LocalDiskStorage;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "tidings-storage-"));
    storage = new LocalDiskStorage(path.join(root, "uploads"));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  const files = () => (fs.existsSync(storage.root) ? fs.readdirSync(storage.root, { recursive: true }).map(String).sort() : []);

  it("stores a stream under its key and reads it back", async () => {
    await storage.put("app_1/upl_a", Readable.from([Buffer.from("hello "), Buffer.from("world")]));
    expect(await text((await storage.get("app_1/upl_a"))!)).toBe("hello world");
    expect(files()).toEqual(["app_1", path.join("app_1", "upl_a")]);
  });

  it("leaves nothing behind when the stream fails half way", async () => {
    async function* failing() {
      yield Buffer.from("partial");
      throw new Error("client went away");
    }
    await expect(storage.put("app_1/upl_b", Readable.from(failing()))).rejects.toThrow("client went away");
    expect(await storage.get("app_1/upl_b")).toBeUndefined();
    expect(files().filter((f) => f.includes("upl_b"))).toEqual([]);
  });

  it("answers undefined for a missing object and deletes idempotently", async () => {
    expect(await storage.get("app_1/nothing")).toBeUndefined();
    await storage.put("app_1/upl_c", Readable.from([Buffer.from("x")]));
    await storage.delete("app_1/upl_c");
    await storage.delete("app_1/upl_c");
    expect(await storage.get("app_1/upl_c")).toBeUndefined();
  });

  it("answers a ping while its folder is writable and refuses one when it cannot be made", async () => {
    await expect(storage.ping()).resolves.toBeUndefined();
    fs.writeFileSync(path.join(root, "a-file"), "");
    await expect(new LocalDiskStorage(path.join(root, "a-file", "uploads")).ping()).rejects.toThrow();
  });

  it("refuses keys that could leave its folder", async () => {
    for (const key of ["../etc/passwd", "a/../../b", "/abs", "a\\b", "", "a//b"]) {
      await expect(storage.put(key, Readable.from([Buffer.from("x")]))).rejects.toThrow("invalid storage key");
    }
  });
});
