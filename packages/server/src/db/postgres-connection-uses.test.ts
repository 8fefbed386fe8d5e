import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, testDialects, type TestDatabase } from "@tidings/testing/test-database";
import { POSTGRES_CONNECTION_USES } from "./postgres-database.js";

// A connection that has served its uses is replaced (see POSTGRES_CONNECTION_USES, counted in
// uses rather than seconds so that a quiet instance keeps its connections: not timed here).
describe.runIf(testDialects().includes("postgres"))("pooled PostgreSQL connections on postgres", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase("postgres");
  });
  afterAll(() => t.cleanup());

  const backend = async () => (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(t.db.kysely)).rows[0]!.pid;

  it("serves a connection for its uses, then reads on a new one", async () => {
    // One query at a time: the pool lends the same idle connection again each time.
    const first = await backend();
    const pids: number[] = [first];
    while (pids.length < POSTGRES_CONNECTION_USES + 10) pids.push(await backend());
    const served = pids.filter((pid) => pid === first).length;
    expect(served).toBe(POSTGRES_CONNECTION_USES);
    expect(pids.slice(0, POSTGRES_CONNECTION_USES).every((pid) => pid === first)).toBe(true);
    const next = pids[POSTGRES_CONNECTION_USES]!;
    expect(next).not.toBe(first);
    // The replaced backend is gone from the server.
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where pid = ${first}`.execute(t.db.kysely);
    expect(rows[0]!.n).toBe(0);
  });
});
