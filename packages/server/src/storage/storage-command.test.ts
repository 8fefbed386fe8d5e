import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { text } from "node:stream/consumers";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { capturedIo } from "@tidings/testing/command-io";
import { startTestS3Server, type TestS3Server } from "@tidings/testing/s3-server";
import { storageCommand } from "./storage-command.js";

describe("tidings storage migrate", () => {
  let s3: TestS3Server;
  let dataDir: string;
  const uploads = () => path.join(dataDir, "uploads");
  const write = (key: string, bytes: string) => {
    const file = path.join(uploads(), ...key.split("/"));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, bytes);
  };
  beforeAll(async () => {
    s3 = await startTestS3Server();
  });
  afterAll(() => s3.close());
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tidings-migrate-"));
    vi.stubEnv("AWS_ACCESS_KEY_ID", s3.env().AWS_ACCESS_KEY_ID);
    vi.stubEnv("AWS_SECRET_ACCESS_KEY", s3.env().AWS_SECRET_ACCESS_KEY);
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const env = (prefix: string) => ({ DATA_DIR: dataDir, ...s3.env(prefix) });
  const json = async (prefix: string) => {
    const run = capturedIo(env(prefix));
    const code = await storageCommand(["migrate", "--json"], run.io);
    return { code, summary: JSON.parse(run.out()) as Record<string, unknown>, err: run.err() };
  };

  it("copies every local upload once; a second run copies nothing, and a changed file is copied again", async () => {
    write("ab/upl_00000000000000000000000000000001-aaaaaaaa", "first screenshot");
    write("cd/upl_00000000000000000000000000000002-bbbbbbbb", "a crash log");
    write("cd/upl_00000000000000000000000000000003-cccccccc", "x".repeat(70_000));
    write("cd/upl_00000000000000000000000000000004-dddddddd.0a1b2c3d4e5f.part", "half written");

    const first = await json("twice");
    expect(first.code).toBe(0);
    expect(first.summary).toMatchObject({ total: 3, copied: 3, skipped: 0, failed: 0, bytesCopied: 16 + 11 + 70_000, to: `s3://${s3.bucket}/twice` });
    expect(first.summary.ignored).toEqual(["cd/upl_00000000000000000000000000000004-dddddddd.0a1b2c3d4e5f.part"]);
    expect(await s3.objects()).toEqual([
      { key: "twice/ab/upl_00000000000000000000000000000001-aaaaaaaa", size: 16 },
      { key: "twice/cd/upl_00000000000000000000000000000002-bbbbbbbb", size: 11 },
      { key: "twice/cd/upl_00000000000000000000000000000003-cccccccc", size: 70_000 },
    ]);
    const stored = await s3.storage("twice").get("cd/upl_00000000000000000000000000000002-bbbbbbbb");
    expect(await text(stored!)).toBe("a crash log");

    const second = await json("twice");
    expect(second.code).toBe(0);
    expect(second.summary).toMatchObject({ total: 3, copied: 0, skipped: 3, failed: 0, bytesCopied: 0 });

    // A copy cut short (here: a different size in the bucket) is sent again.
    write("ab/upl_00000000000000000000000000000001-aaaaaaaa", "first screenshot, longer");
    const third = await json("twice");
    expect(third.summary).toMatchObject({ copied: 1, skipped: 2 });
    // Local files, the stray .part one included, are left as they were.
    expect(fs.readdirSync(uploads(), { recursive: true }).length).toBe(2 + 4);
  });

  it("prints one plain line per upload when piped and a progress bar with counts on a terminal", async () => {
    write("ab/upl_00000000000000000000000000000005-aaaaaaaa", "hello");
    const piped = capturedIo(env("lines"));
    expect(await storageCommand(["migrate"], piped.io)).toBe(0);
    expect(piped.err()).toBe("[1/1] ab/upl_00000000000000000000000000000005-aaaaaaaa (5 bytes) copied\n");
    expect(piped.out()).toMatch(/^Copied 1 upload\(s\) \(0\.0 MB\) from .+ to s3:\/\/tidings-test\/lines; 0 already there, 0 failed\.\n$/);

    const terminal = capturedIo(env("lines"), { tty: true });
    expect(await storageCommand(["migrate"], terminal.io)).toBe(0);
    expect(terminal.err()).toContain("1/1 | 0 copied, 1 already there, 0 failed");
  });

  it("refuses to run without an s3:// STORAGE_URL or with a bad setting, with exit code 2", async () => {
    const local = capturedIo({ DATA_DIR: dataDir });
    expect(await storageCommand(["migrate"], local.io)).toBe(2);
    expect(local.err()).toContain("STORAGE_URL");
    const bad = capturedIo({ ...env(""), S3_REGION: "Mars One" });
    expect(await storageCommand(["migrate"], bad.io)).toBe(2);
    expect(bad.err()).toContain("S3_REGION");
    const unknown = capturedIo(env(""));
    expect(await storageCommand(["migrate", "--to", "x"], unknown.io)).toBe(2);
    const help = capturedIo({});
    expect(await storageCommand(["migrate", "--help"], help.io)).toBe(0);
    expect(help.out()).toContain("Usage: tidings storage migrate");
  });

  it("exits 1 when the bucket cannot be reached", async () => {
    write("ab/upl_00000000000000000000000000000006-aaaaaaaa", "hello");
    const run = capturedIo({ DATA_DIR: dataDir, ...s3.env(""), STORAGE_URL: "s3://no-such-bucket" });
    expect(await storageCommand(["migrate"], run.io)).toBe(1);
    expect(run.err()).toContain('Cannot reach bucket "no-such-bucket"');
  });
});
