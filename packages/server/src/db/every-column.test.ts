import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeClock } from "@tidings/testing/fake-clock";
import { openTestDatabase, testDialects, type TestDatabase } from "@tidings/testing/test-database";
import { APP_COLUMNS } from "../apps/app-row.js";
import { findAppByKey } from "../apps/app-keys.js";
import { createApp } from "../apps/apps.js";
import { BOARD_COLUMNS, createBoard, listBoards, listBoardsByAppKey } from "../boards/boards.js";
import { createField } from "../custom-fields/definitions.js";
import { listFields } from "../custom-fields/field-reads.js";
import { CUSTOM_FIELD_COLUMNS } from "../custom-fields/field-rows.js";
import { appPublicTags } from "../tags/public-tags.js";
import { createTag, TAG_COLUMNS } from "../tags/tags.js";
import { createWorkspace } from "../workspaces/workspaces.js";

/** The keys of a row of `table` read with `*`: its columns as the migrations left them, named as every row's keys are. */
async function columnsInDatabase(t: TestDatabase, table: (typeof LISTS)[number][0]): Promise<string[]> {
  return Object.keys(await t.db.kysely.selectFrom(table).selectAll().limit(1).executeTakeFirstOrThrow()).sort();
}

const LISTS = [
  ["apps", APP_COLUMNS],
  ["boards", BOARD_COLUMNS],
  ["tags", TAG_COLUMNS],
  ["customFields", CUSTOM_FIELD_COLUMNS],
] as const;

describe.each(testDialects())("whole rows read with their columns named, on %s", (dialect) => {
  let t: TestDatabase;
  const clock = new FakeClock();
  let appKey = "";
  let appId = "";
  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    const { workspace } = await createWorkspace(t.db.kysely, clock, { name: "Columns", slug: "columns" }, null);
    const app = await createApp(t.db.kysely, clock, workspace.id, { name: "Named" });
    appKey = app.row.appKey;
    appId = app.row.id;
    await createBoard(t.db.kysely, clock, appId, { name: "Ideas" });
    await createTag(t.db.kysely, clock, appId, { name: "iOS", visibility: "public" });
    await createField(t.db.kysely, clock, appId, { label: "Plan", type: "text", appliesTo: ["feature_request"] });
  });
  afterAll(() => t.cleanup());

  it.each(LISTS)("name every column of %s, as the migrations made it", async (table, columns) => {
    expect([...columns].sort()).toEqual(await columnsInDatabase(t, table));
  });

  it("read the same rows as selecting every column", async () => {
    const app = await findAppByKey(t.db.kysely, appKey);
    expect(app?.app).toEqual(await t.db.kysely.selectFrom("apps").selectAll().where("id", "=", appId).executeTakeFirstOrThrow());
    expect(app?.workspaceSlug).toBe("columns");
    const boards = await t.db.kysely.selectFrom("boards").selectAll().where("appId", "=", appId).orderBy("position").orderBy("id").execute();
    expect(boards.map((b) => b.name)).toContain("Ideas");
    expect(await listBoards(t.db.kysely, appId)).toEqual(boards);
    expect(await listBoardsByAppKey(t.db.kysely, appKey)).toEqual(boards);
    expect(await appPublicTags(t.db.kysely, appId, undefined)).toEqual(await t.db.kysely.selectFrom("tags").selectAll().where("appId", "=", appId).execute());
    const fields = await listFields(t.db.kysely, appId);
    expect(fields.map((f) => f.label)).toEqual(["Plan"]);
    expect(fields).toEqual(await t.db.kysely.selectFrom("customFields").selectAll().where("appId", "=", appId).execute());
  });

  it.skipIf(dialect !== "postgres")("are prepared once on each connection (PostgreSQL), where `*` was parsed and planned on every run", async () => {
    await t.db.kysely.connection().execute(async (conn) => {
      const named = async () =>
        new Map(
          (await sql<{ statement: string; calls: number }>`select statement, generic_plans + custom_plans as calls from pg_prepared_statements`.execute(conn)).rows.map((s) => [
            s.statement,
            Number(s.calls),
          ]),
        );
      const before = await named();
      for (let i = 0; i < 3; i++) {
        await findAppByKey(conn, appKey);
        await listBoards(conn, appId);
        await listBoardsByAppKey(conn, appKey);
        await appPublicTags(conn, appId, undefined);
        await listFields(conn, appId);
      }
      const after = await named();
      // Each read is told apart by a column of its table alone; each ran 3 times as one statement.
      const runsOf = (column: string) => [...after].filter(([statement]) => statement.includes(column)).map(([statement, calls]) => calls - (before.get(statement) ?? 0));
      expect(runsOf('"signing_secret"')).toEqual([3]);
      expect(runsOf('"access_rule"')).toEqual([3, 3]);
      expect(runsOf('from "tags"')).toEqual([3]);
      expect(runsOf('"applies_to"')).toEqual([3]);
    });
  });
});
