import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordStatements, sqlitePlan } from "@tidings/testing/statement-recorder";
import { createTestApp, type TestApp } from "@tidings/testing/test-app";

/**
 * Tables a background tick may read whole: queues it drains, and the trackers' links, which it
 * reads to find the ones whose demand changed. Every other table grows with use.
 */
const READ_WHOLE = new Set(["ship_notify_queue", "ship_due_queue", "tracker_issue_links", "tracker_connections"]);

/** The tables (by alias or name) a SQLite plan line scans, as `SCAN <name>` names them. */
function scannedTables(statement: string, plan: string[]): string[] {
  const aliases = new Map<string, string>();
  for (const [, table, alias] of statement.matchAll(/"(\w+)" as "(\w+)"/g)) aliases.set(alias!, table!);
  for (const [, table, alias] of statement.matchAll(/\b(?:from|join) (\w+) (?:as )?(\w+)/gi)) aliases.set(alias!, table!);
  return plan
    .map((line) => /^SCAN (\w+)/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined && name !== "CONSTANT")
    .map((name) => aliases.get(name) ?? name);
}

describe("the background tick on SQLite", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp("sqlite", {}, { timeQueries: true, jobIntervalMs: 0 });
  });
  afterAll(() => t.close());

  it("reads no table that grows with use in full, on a database SQLite has statistics for", async () => {
    const db = t.database.db.kysely;
    // Statistics as on a large instance: every table that holds anything counts a million rows,
    // with the demo app's spread of values; the tracker and queue tables stay as they are (empty).
    await sql`analyze`.execute(db);
    await sql`update sqlite_stat1 set stat = '1000000' || substr(stat, instr(stat, ' ')) where instr(stat, ' ') > 0`.execute(db);
    await sql`update sqlite_stat1 set stat = '1000000' where instr(stat, ' ') = 0`.execute(db);
    await sql`analyze sqlite_schema`.execute(db);

    // One request queued as if it had just shipped, so the reads of its due subscribers run too.
    const shipped = await db.selectFrom("featureRequests").select("id").limit(1).executeTakeFirstOrThrow();
    await db.insertInto("shipDueQueue").values({ featureRequestId: shipped.id }).execute();

    const statements = await recordStatements(t.database.db, () => t.app.jobs.tick());
    expect(statements.some((s) => s.sql.includes(`"email_subscriptions" as "s"`))).toBe(true);
    const reads = statements.filter((s) => /^\s*(select|with)\b/i.test(s.sql));
    expect(reads.length).toBeGreaterThan(3);
    const scans: string[] = [];
    for (const read of reads) {
      for (const table of scannedTables(read.sql, await sqlitePlan(db, read))) {
        if (!READ_WHOLE.has(table)) scans.push(`${table}: ${read.sql.slice(0, 120)}`);
      }
    }
    expect(scans).toEqual([]);
  });
});
