import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { walSync } from "./wal-sync.js";

describe("walSync", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tidings-wal-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("syncs an existing file through one descriptor, again after close", async () => {
    const file = path.join(dir, "a.db-wal");
    fs.writeFileSync(file, "frames");
    const wal = walSync(file);
    await expect(wal.sync()).resolves.toBeUndefined();
    await expect(wal.sync()).resolves.toBeUndefined();
    wal.close();
    fs.appendFileSync(file, " more");
    await expect(wal.sync()).resolves.toBeUndefined();
    wal.close();
  });

  it("has nothing to sync while the WAL does not exist", async () => {
    await expect(walSync(path.join(dir, "missing.db-wal")).sync()).resolves.toBeUndefined();
  });

  it("reports a failure to open the file", async () => {
    const blocked = path.join(dir, "not-a-dir");
    fs.writeFileSync(blocked, "");
    await expect(walSync(path.join(blocked, "x.db-wal")).sync()).rejects.toThrow(/ENOTDIR/);
  });
});
