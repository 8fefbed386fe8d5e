import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { capturedIo } from "@tidings/testing/command-io";
import { seedDemo } from "../demo/seed-demo.js";
import { FakeClock } from "@tidings/testing/fake-clock";
import { databaseUrl, openTestDatabase, testDialects, type TestDatabase } from "@tidings/testing/test-database";
import { exportCommand } from "./export-command.js";
import { importCommand } from "./import-command.js";

const envOf = (database: TestDatabase, dir: string) => ({
  DATA_DIR: dir,
  DATABASE_URL: databaseUrl(database),
  LOG_LEVEL: "silent",
});

describe.each(testDialects())("tidings import --format tidings on %s", (dialect) => {
  let source: TestDatabase;
  let target: TestDatabase;
  let dirs: string[];
  let archive: string;
  beforeAll(async () => {
    [source, target] = await Promise.all([openTestDatabase(dialect), openTestDatabase(dialect)]);
    await seedDemo(source.db.kysely, new FakeClock(), dialect);
    dirs = [0, 1].map(() => fs.mkdtempSync(path.join(os.tmpdir(), "tidings-archive-cli-")));
    archive = path.join(dirs[0]!, "demo.jsonl");
    const run = capturedIo(envOf(source, dirs[0]!));
    expect(await exportCommand(["--app", "app_demo", "--out", archive], run.io), run.err()).toBe(0);
  });
  afterAll(async () => {
    await Promise.all([source.cleanup(), target.cleanup()]);
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  const requests = async (database: TestDatabase) =>
    (await database.db.kysely.selectFrom("featureRequests").select(["id", "title", "voteCount"]).orderBy("id").execute()).map((r) => ({ ...r, voteCount: Number(r.voteCount) }));

  it("reads an export back into an empty server with its ids, and a second run adds nothing", async () => {
    const first = capturedIo(envOf(target, dirs[1]!));
    expect(await importCommand(["--format", "tidings", "--json", archive], first.io), first.err()).toBe(0);
    const events = first.out().trimEnd().split("\n").map((line) => JSON.parse(line) as { type: string; inserted?: Record<string, number> });
    expect(events[0]).toMatchObject({ type: "start", unit: "bytes", total: fs.statSync(archive).size });
    const summary = events.at(-1)!;
    expect(summary).toMatchObject({ type: "summary", format: "tidings", scope: { kind: "app", appKey: "app_demo" } });
    expect(summary.inserted!.featureRequests).toBe(12);
    expect(await requests(target)).toEqual(await requests(source));

    const again = capturedIo(envOf(target, dirs[1]!));
    expect(await importCommand(["--format", "tidings", archive], again.io), again.err()).toBe(0);
    expect(again.out()).toMatch(/featureRequests\s+0 new, 12 already there/);
    expect(await requests(target)).toEqual(await requests(source));
  });

  it("refuses the options of the other formats, a missing workspace and an unreadable archive", async () => {
    const env = envOf(target, dirs[1]!);
    const withApp = capturedIo(env);
    expect(await importCommand(["--format", "tidings", "--app", "app_demo", "--dry-run", archive], withApp.io)).toBe(2);
    expect(withApp.err()).toContain("--app, --dry-run cannot be used with it");
    const noWorkspace = capturedIo(env);
    expect(await importCommand(["--format", "tidings", "--workspace", "nowhere", archive], noWorkspace.io)).toBe(2);
    expect(noWorkspace.err()).toContain('no workspace with slug "nowhere"');
    const broken = path.join(dirs[1]!, "broken.jsonl");
    fs.writeFileSync(broken, "this is not JSON\n");
    const bad = capturedIo(env);
    expect(await importCommand(["--format", "tidings", broken], bad.io)).toBe(1);
    expect(bad.err()).toMatch(/Archive refused at line 1/);
    const missing = capturedIo(env);
    expect(await importCommand(["--format", "tidings", path.join(dirs[1]!, "absent.jsonl")], missing.io)).toBe(1);
  });
});
