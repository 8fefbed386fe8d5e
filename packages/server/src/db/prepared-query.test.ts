import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeClock } from "@tidings/testing/fake-clock";
import { openTestDatabase, testDialects, type TestDatabase } from "@tidings/testing/test-database";
import { createWorkspace } from "../workspaces/workspaces.js";
import { preparedQuery } from "./prepared-query.js";

const bySlug = preparedQuery<{ slug: string }, { id: string; name: string }>((db, p) =>
  db.selectFrom("workspaces").select(["id", "name"]).where("slug", "=", p.slug).where("name", "!=", "never"),
);
// Every column: its result's shape follows the schema, so it is never a named statement.
const everyColumn = preparedQuery<{ slug: string }, { id: string; slug: string }>((db, p) => db.selectFrom("workspaces").selectAll().where("slug", "=", p.slug));
const rename = preparedQuery<{ id: string; name: string }, { name: string }>((db, p) =>
  db.updateTable("workspaces").set({ name: sql<string>`${p.name} || ' (renamed)'` }).where("id", "=", p.id).returning("name"),
);

describe.each(testDialects())("prepared queries on %s", (dialect) => {
  let t: TestDatabase;
  const clock = new FakeClock();
  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    for (const slug of ["alpha", "beta"]) await createWorkspace(t.db.kysely, clock, { name: `Team ${slug}`, slug }, null);
  });
  afterAll(() => t.cleanup());

  it("binds new values each run and keeps the constants built in", async () => {
    expect((await bySlug.first(t.db.kysely, { slug: "alpha" }))?.name).toBe("Team alpha");
    expect((await bySlug.first(t.db.kysely, { slug: "beta" }))?.name).toBe("Team beta");
    expect(await bySlug.rows(t.db.kysely, { slug: "gamma" })).toEqual([]);
  });

  it("answers what the same query built by Kysely answers, camel-cased", async () => {
    const built = await t.db.kysely.selectFrom("workspaces").select(["id", "name"]).where("slug", "=", "beta").executeTakeFirst();
    expect(await bySlug.first(t.db.kysely, { slug: "beta" })).toEqual(built);
  });

  it("runs inside a transaction, parameters inside raw SQL included", async () => {
    const alpha = await bySlug.first(t.db.kysely, { slug: "alpha" });
    await expect(
      t.db.kysely.transaction().execute(async (trx) => {
        expect(await rename.first(trx, { id: alpha!.id, name: "Renamed" })).toEqual({ name: "Renamed (renamed)" });
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect((await bySlug.first(t.db.kysely, { slug: "alpha" }))?.name).toBe("Team alpha");
  });
});

describe.skipIf(!testDialects().includes("postgres"))("prepared queries on PostgreSQL", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase("postgres");
    await createWorkspace(t.db.kysely, new FakeClock(), { name: "Team delta", slug: "delta" }, null);
  });
  afterAll(() => t.cleanup());

  it("are prepared once on each connection as named statements, and answer as before", async () => {
    await t.db.kysely.connection().execute(async (conn) => {
      const prepared = async () =>
        (await sql<{ statement: string; calls: number }>`select statement, generic_plans + custom_plans as calls from pg_prepared_statements where statement like '%"slug" = $1%'`.execute(conn)).rows;
      for (let i = 0; i < 3; i++) expect((await bySlug.first(conn, { slug: "delta" }))?.name).toBe("Team delta");
      const [statement, ...others] = await prepared();
      expect(others).toEqual([]);
      expect(statement).toMatchObject({ calls: 3 });
    });
    // A statement selecting `*` stays unnamed: it would refuse to run once a migration adds a column.
    await t.db.kysely.connection().execute(async (conn) => {
      for (let i = 0; i < 3; i++) expect((await everyColumn.first(conn, { slug: "delta" }))?.slug).toBe("delta");
      expect((await sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements where statement like 'select * from "workspaces"%'`.execute(conn)).rows[0]!.n).toBe(0);
    });
    // Kysely's own queries stay unnamed.
    await t.db.kysely.connection().execute(async (conn) => {
      await conn.selectFrom("workspaces").select("id").where("slug", "=", "delta").execute();
      expect((await sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements where statement like '%from "workspaces" where "slug" = $1'`.execute(conn)).rows[0]!.n).toBe(0);
    });
  });
});
