import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { capturedIo } from "@tidings/testing/command-io";
import { loadConfig } from "../config.js";
import { startServer, type RunningServer } from "../serve.js";
import { GENEROUS_RATE_LIMITS } from "@tidings/testing/test-app";
import { databaseUrl, testDialects } from "@tidings/testing/test-database";
import { createUploadTestApp, multipartBody, png } from "@tidings/testing/uploads-kit";
import { tokenHash } from "../users/identity.js";
import { backupCommand } from "./backup-command.js";
import { restoreCommand } from "./restore-command.js";

const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tidings-backup-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("tidings backup and restore (SQLite)", () => {
  let server: RunningServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("takes a snapshot while votes pour in that restores intact, with every vote acknowledged before it began", async () => {
    const dataDir = tempDir();
    const env = { DATA_DIR: dataDir, LOG_LEVEL: "silent" };
    server = await startServer({ ...loadConfig(env), port: 0, host: "127.0.0.1", rateLimits: GENEROUS_RATE_LIMITS });
    const db = server.app.ctx.db.kysely;
    const requests = (await db.selectFrom("featureRequests").select("id").where("moderation", "=", "approved").execute()).map((r) => r.id);
    const url = server.url;
    // An uploaded attachment, so the backup has a file to carry.
    const shot = new FormData();
    shot.append("appKey", "app_demo");
    shot.append("file", new Blob([Buffer.concat([Buffer.from("89504e470d0a1a0a0000000d49484452", "hex"), Buffer.alloc(5000, 1)])], { type: "image/png" }), "s.png");
    const uploaded = await fetch(`${url}/api/v1/uploads/images`, { method: "POST", body: shot });
    expect(uploaded.status).toBe(200);

    const acknowledged: string[] = [];
    let stop = false;
    let sent = 0;
    const voter = async (worker: number) => {
      for (let n = 0; !stop; n++) {
        const token = `voter-${worker}-${n}`;
        const requestId = requests[(worker + n) % requests.length]!;
        sent += 1;
        const res = await fetch(`${url}/api/v1/feature-requests/${requestId}/vote`, { method: "POST", headers: { "x-user-token": token, "content-type": "application/json" }, body: "{}" });
        expect(res.status).toBe(200);
        await res.arrayBuffer();
        acknowledged.push(`${requestId} ${tokenHash(token)}`);
      }
    };
    const load = Array.from({ length: 8 }, (_, worker) => voter(worker));
    while (acknowledged.length < 300) await new Promise((resolve) => setImmediate(resolve));

    const before = [...acknowledged];
    const inFlight = sent - acknowledged.length;
    const out = path.join(tempDir(), "backup");
    const run = capturedIo(env);
    const code = await backupCommand(["--out", out, "--json"], run.io);
    stop = true;
    await Promise.all(load);
    expect(code, run.err()).toBe(0);
    // The load was running when the snapshot began: every voter had a vote on the wire.
    expect(inFlight).toBe(8);
    expect(JSON.parse(run.out())).toMatchObject({ type: "tidings-backup", database: "sqlite", uploads: 1, missing: [] });

    const target = tempDir();
    const restored = capturedIo({ DATA_DIR: target, LOG_LEVEL: "silent" });
    expect(await restoreCommand([out], restored.io), restored.err()).toBe(0);
    const copy = new SQLite(path.join(target, "tidings.db"), { readonly: true });
    try {
      expect(copy.pragma("integrity_check", { simple: true })).toBe("ok");
      const votes = new Set(
        copy
          .prepare<[], { v: string }>("select v.feature_request_id || ' ' || u.token_hash as v from feature_request_votes v join end_users u on u.id = v.end_user_id")
          .all()
          .map((r) => r.v),
      );
      expect(before.filter((v) => !votes.has(v))).toEqual([]);
      expect(votes.size).toBeLessThanOrEqual(acknowledged.length + 191);
      // Counters agree with the rows in the snapshot: no half-applied vote.
      const drift = copy
        .prepare("select id from feature_requests where vote_count <> imported_votes + (select count(*) from feature_request_votes v where v.feature_request_id = feature_requests.id)")
        .all();
      expect(drift).toEqual([]);
      const upload = copy.prepare<[], { storage_key: string }>("select storage_key from uploads").get()!;
      expect(fs.statSync(path.join(target, "uploads", ...upload.storage_key.split("/"))).size).toBe(5016);
    } finally {
      copy.close();
    }
    expect(sent).toBeGreaterThanOrEqual(acknowledged.length);
  }, 60_000);

  it("refuses a folder that is not empty, a folder without a manifest, and a restore over a database without --force", async () => {
    const dataDir = tempDir();
    const env = { DATA_DIR: dataDir, LOG_LEVEL: "silent" };
    server = await startServer({ ...loadConfig(env), port: 0, host: "127.0.0.1" });
    const busy = tempDir();
    fs.writeFileSync(path.join(busy, "x"), "x");
    const refused = capturedIo(env);
    expect(await backupCommand(["--out", busy], refused.io)).toBe(2);
    expect(refused.err()).toMatch(/is not empty/);
    const usage = capturedIo(env);
    expect(await backupCommand([], usage.io)).toBe(2);
    expect(usage.err()).toMatch(/Give --out/);
    const help = capturedIo(env);
    expect(await backupCommand(["--help"], help.io)).toBe(0);
    expect(help.out()).toMatch(/^Usage: tidings backup/);

    const notABackup = capturedIo(env);
    expect(await restoreCommand([busy], notABackup.io)).toBe(2);
    expect(notABackup.err()).toMatch(/not a complete Tidings backup/);

    const out = path.join(tempDir(), "b");
    expect(await backupCommand(["--out", out], capturedIo(env).io)).toBe(0);
    const over = capturedIo(env);
    expect(await restoreCommand([out], over.io)).toBe(2);
    expect(over.err()).toMatch(/already exists: stop the server and pass --force/);

    // A damaged snapshot is refused before anything is replaced.
    const broken = path.join(out, "tidings.db");
    const bytes = fs.readFileSync(broken);
    bytes.fill(0x55, 4096 * 2, 4096 * 4);
    fs.writeFileSync(broken, bytes);
    const target = tempDir();
    const damaged = capturedIo({ DATA_DIR: target, LOG_LEVEL: "silent" });
    expect(await restoreCommand([out], damaged.io)).not.toBe(0);
    expect(fs.existsSync(path.join(target, "tidings.db"))).toBe(false);
  });
});

describe.skipIf(!testDialects().includes("postgres"))("tidings backup and restore (PostgreSQL)", () => {
  it("backs up and restores the uploads the database lists, and says the database is pg_dump's job", async () => {
    const t = await createUploadTestApp("postgres");
    const elsewhere = tempDir();
    try {
      const body = multipartBody([{ name: "appKey", value: "app_demo" }, { name: "file", filename: "s.png", contentType: "image/png", data: png(900) }]);
      const res = await t.app.inject({ method: "POST", url: "/api/v1/uploads/images", payload: body.payload, headers: body.headers });
      expect(res.statusCode).toBe(200);
      const url = databaseUrl(t.database);
      const out = path.join(tempDir(), "files");
      const run = capturedIo({ DATA_DIR: t.dataDir, DATABASE_URL: url, LOG_LEVEL: "silent" });
      expect(await backupCommand(["--out", out], run.io), run.err()).toBe(0);
      expect(run.out()).toMatch(/Database not included \(PostgreSQL: use pg_dump\); 1 upload\(s\) written/);
      expect(fs.existsSync(path.join(out, "tidings.db"))).toBe(false);

      const restored = capturedIo({ DATA_DIR: elsewhere, DATABASE_URL: url, LOG_LEVEL: "silent" });
      expect(await restoreCommand([out, "--json"], restored.io), restored.err()).toBe(0);
      expect(JSON.parse(restored.out())).toMatchObject({ database: "postgres", uploads: 1 });
      const [key] = await t.storedFiles();
      expect(fs.readFileSync(path.join(elsewhere, "uploads", key!))).toEqual(fs.readFileSync(path.join(t.dataDir, "uploads", key!)));
    } finally {
      await t.close();
    }
  });
});
