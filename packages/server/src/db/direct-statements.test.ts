import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { sql, type Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeClock } from "@tidings/testing/fake-clock";
import { createWorkspace } from "../workspaces/workspaces.js";
import { migrateToLatest } from "./migrate.js";
import type { Db } from "./database.js";
import { sqliteDirectRunner, type DirectRunner } from "./direct-statements.js";
import { createGroupCommit } from "./group-commit.js";
import { preparedQuery } from "./prepared-query.js";
import type { Database } from "./schema.js";
import { sqliteKysely } from "./sqlite-connection.js";

const clock = new FakeClock();

const workspaceBySlug = preparedQuery<{ slug: string }, { id: string; name: string; createdAt: string; monthlySubmissionQuota: number | null }>((db, p) =>
  db.selectFrom("workspaces").select(["id", "name", "createdAt", "monthlySubmissionQuota"]).where("slug", "=", p.slug),
);
const renameAll = preparedQuery<{ prefix: string; name: string }, never>((db, p) =>
  db.updateTable("workspaces").set({ name: p.name }).where("slug", "like", p.prefix),
);
const setQuota = preparedQuery<{ slug: string; quota: number }, { slug: string; monthlySubmissionQuota: number | null }>((db, p) =>
  db.updateTable("workspaces").set({ monthlySubmissionQuota: p.quota }).where("slug", "=", p.slug).returning(["slug", "monthlySubmissionQuota"]),
);

describe("statements run directly inside SQLite shared transactions", () => {
  let dir: string;
  let kysely: Kysely<Database>;
  /** Every statement the direct runner was given, in order. */
  const ran: string[] = [];
  let shared: ReturnType<typeof createGroupCommit>;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "tidings-direct-"));
    const opened = sqliteKysely(new SQLite(path.join(dir, "direct.db")));
    kysely = opened.kysely;
    const statements = opened.statements;
    await migrateToLatest({ kysely, dialect: "sqlite" } as Db);
    const runner = sqliteDirectRunner(statements);
    const recording: DirectRunner = (text, parameters) => {
      ran.push(text);
      return runner(text, parameters);
    };
    shared = createGroupCommit(kysely, { direct: recording });
    for (const slug of ["direct-a", "direct-b"]) await createWorkspace(kysely, clock, { name: slug, slug }, null);
  });
  afterAll(async () => {
    await kysely.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("answers a prepared query as Kysely does: camel-cased columns, returned rows", async () => {
    ran.length = 0;
    const viaKysely = await workspaceBySlug.first(kysely, { slug: "direct-a" });
    expect(ran).toEqual([]);
    const direct = await shared((trx) => workspaceBySlug.first(trx, { slug: "direct-a" }));
    expect(direct).toEqual(viaKysely);
    expect(direct).toEqual({ id: expect.stringMatching(/^ws_/), name: "direct-a", createdAt: clock.now().toISOString(), monthlySubmissionQuota: 1000 });
    expect(await shared((trx) => setQuota.rows(trx, { slug: "direct-b", quota: 7 }))).toEqual([{ slug: "direct-b", monthlySubmissionQuota: 7 }]);
    expect(ran.filter((s) => !/^(savepoint|release)/.test(s))).toHaveLength(2);
  });

  it("counts the rows a statement without results changed, as Kysely does", async () => {
    const direct = await shared((trx) => renameAll.execute(trx, { prefix: "direct-%", name: "renamed" }));
    const viaKysely = await renameAll.execute(kysely, { prefix: "direct-%", name: "renamed again" });
    expect(direct.numAffectedRows).toBe(2n);
    expect(viaKysely.numAffectedRows).toBe(2n);
    expect(direct.rows).toEqual([]);
  });

  it("runs each unit's savepoints and prepared queries directly; queries Kysely builds still go through it", async () => {
    ran.length = 0;
    await shared(async (trx) => {
      await workspaceBySlug.first(trx, { slug: "direct-a" });
      await trx.selectFrom("workspaces").select("id").where("slug", "=", "direct-b").execute();
    });
    expect(ran).toEqual(["savepoint unit", expect.stringMatching(/^select "id", "name", "created_at"/), "release unit"]);
  });

  it("a unit whose direct statement fails rolls back its own writes only, and the error reaches its caller", async () => {
    const results = await Promise.allSettled([
      shared((trx) => setQuota.first(trx, { slug: "direct-a", quota: 1 })),
      shared(async (trx) => {
        await setQuota.first(trx, { slug: "direct-b", quota: 2 });
        // Violates the unique slug: SQLite refuses the statement.
        await sql`update workspaces set slug = 'direct-a' where slug = 'direct-b'`.execute(trx);
      }),
      shared(async (trx) => {
        await setQuota.first(trx, { slug: "direct-b", quota: 3 });
        // A value SQLite cannot bind: the runner throws at once, and the unit still gets a rejection.
        return renameAll.execute(trx, { prefix: "direct-b", name: sql`oops` as never });
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "rejected"]);
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/UNIQUE constraint failed/);
    expect(String((results[2] as PromiseRejectedResult).reason)).toMatch(/bind|type/i);
    expect((await workspaceBySlug.first(kysely, { slug: "direct-a" }))?.monthlySubmissionQuota).toBe(1);
    expect((await workspaceBySlug.first(kysely, { slug: "direct-b" }))?.monthlySubmissionQuota).toBe(7);
  });
});
