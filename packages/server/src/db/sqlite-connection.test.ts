import SQLite from "better-sqlite3";
import { sql, type Generated, type Kysely } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { sqliteKysely } from "./sqlite-connection.js";

/** A table of its own, keyed in camelCase as the plugin maps it. */
interface Items {
  boardItems: { itemId: Generated<number>; appId: string; voteCount: number };
}

describe("SQLite connection over the statement cache", () => {
  let opened: ReturnType<typeof sqliteKysely> | undefined;
  afterEach(async () => opened?.kysely.destroy());

  const open = async () => {
    opened = sqliteKysely(new SQLite(":memory:"));
    await sql`create table board_items (item_id integer primary key, app_id text not null, vote_count integer not null)`.execute(opened.kysely);
    return opened.kysely as unknown as Kysely<Items>;
  };

  it("keys rows in camelCase for queries through the plugin, built or raw, streamed or returned by a write", async () => {
    const db = await open();
    const inserted = await sql`insert into board_items (app_id, vote_count) values ('a', 3), ('b', 4) returning item_id, app_id`.execute(db);
    expect(inserted.rows).toEqual([
      { itemId: 1, appId: "a" },
      { itemId: 2, appId: "b" },
    ]);
    expect(await db.selectFrom("boardItems").selectAll().orderBy("itemId").execute()).toEqual([
      { itemId: 1, appId: "a", voteCount: 3 },
      { itemId: 2, appId: "b", voteCount: 4 },
    ]);
    const streamed: unknown[] = [];
    for await (const row of db.selectFrom("boardItems").select(["appId", "voteCount"]).orderBy("itemId").stream()) streamed.push(row);
    expect(streamed).toEqual([
      { appId: "a", voteCount: 3 },
      { appId: "b", voteCount: 4 },
    ]);
    const written = await db.insertInto("boardItems").values({ appId: "c", voteCount: 0 }).executeTakeFirstOrThrow();
    expect(written.insertId).toBe(3n);
    expect((await db.updateTable("boardItems").set({ voteCount: 9 }).where("voteCount", "<", 4).executeTakeFirstOrThrow()).numUpdatedRows).toBe(2n);
  });

  it("keys rows by column name without the plugin, as migrations read them, and renames those of a query compiled elsewhere", async () => {
    const db = await open();
    await sql`insert into board_items (app_id, vote_count) values ('a', 3)`.execute(db);
    const bare = opened!.kysely.withoutPlugins();
    expect((await sql`select app_id, vote_count from board_items`.execute(bare)).rows).toEqual([{ app_id: "a", vote_count: 3 }]);
    // Compiled without the plugin, run with it: the plugin renames the rows it did not see built.
    const compiled = sql`select app_id from board_items`.compile(bare);
    expect((await opened!.kysely.executeQuery(compiled)).rows).toEqual([{ appId: "a" }]);
    // The same SQL through the plugin is keyed at the connection.
    expect((await sql`select app_id from board_items`.execute(opened!.kysely)).rows).toEqual([{ appId: "a" }]);
  });

  it("runs transactions on its one connection: a rolled-back one leaves nothing", async () => {
    const db = await open();
    await expect(
      db.transaction().execute(async (trx) => {
        await sql`insert into board_items (app_id, vote_count) values ('x', 1)`.execute(trx);
        throw new Error("stop");
      }),
    ).rejects.toThrow("stop");
    await db.transaction().execute(async (trx) => sql`insert into board_items (app_id, vote_count) values ('y', 2)`.execute(trx));
    expect((await sql<{ appId: string }>`select app_id from board_items`.execute(db)).rows).toEqual([{ appId: "y" }]);
  });
});
