import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql, type Kysely } from "kysely";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { createTestApp, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";
import { enabledEndpointRow } from "@tidings/testing/webhook-endpoint-row";
import type { Database } from "../db/schema.js";
import { systemClock } from "../clock.js";
import { tokenHash } from "../users/identity.js";
import { bulkTag } from "../tags/request-tags.js";
import { createTag } from "../tags/tags.js";
import { votesOnPostgres } from "./vote-batch.js";

interface VoteRow {
  outcome: string;
  endUserId: string | null;
  voted: boolean | null;
  voteCount: number | null;
  changed: boolean | null;
  errorCode: string | null;
}

// PostgreSQL applies the votes of a shared transaction in one call of `apply_votes`: the whole
// batch in one block, and again one block per vote when anything in it fails (migration 0040).
// Whichever way a batch went, each vote answers for itself and only the votes answered `ok` are
// written.
describe.runIf(testDialects().includes("postgres"))("a batch of votes on postgres", () => {
  let t: TestApp;
  let acme: Awaited<ReturnType<typeof createWorkspaceWithApp>>;
  const db = () => t.database.db.kysely;
  beforeAll(async () => {
    t = await createTestApp("postgres", { demo: false });
    acme = await createWorkspaceWithApp(t.app, t.admin.authorization);
  });
  afterAll(() => t.close());

  const newRequest = async (title: string): Promise<string> =>
    (await acme.console.post(`/workspaces/${acme.wsId}/feature-requests`, { appId: acme.appId, title })).body.id;

  /** One call of `fn` on `executor`: toggles of new or known voters. */
  const callVotes = async (fn: "apply_votes" | "apply_votes_alone", executor: Kysely<Database>, votes: Array<{ requestId: string; token: string; newId?: string }>): Promise<VoteRow[]> => {
    const now = new Date().toISOString();
    const column = <T>(value: (vote: (typeof votes)[number], i: number) => T) => votes.map(value);
    const result = await sql<VoteRow>`select outcome, end_user_id, voted, vote_count, changed, error_code
      from ${sql.raw(fn)}(${column((v) => v.requestId)}::text[], ${column(() => acme.appId)}::text[], ${column((v) => tokenHash(v.token))}::text[],
        ${column((v, i) => v.newId ?? `eu_batch_${v.token}_${i}`)}::text[], ${column((v) => `pub_${v.token}`)}::text[], ${column(() => null)}::text[],
        ${column(() => false)}::boolean[], ${column(() => false)}::boolean[], ${column(() => null)}::text[], ${column(() => null)}::text[],
        ${column(() => null)}::text[], ${column(() => now)}::text[]) with ordinality order by ordinality`.execute(executor);
    return result.rows;
  };
  /** One call of `apply_votes` in a transaction of its own, as a lane runs it. */
  const applyVotes = (votes: Array<{ requestId: string; token: string; newId?: string }>) =>
    db()
      .transaction()
      .execute((trx) => callVotes("apply_votes", trx, votes));
  const stored = async (id: string) => ({
    voters: (
      await db()
        .selectFrom("featureRequestVotes as v")
        .innerJoin("endUsers as eu", "eu.id", "v.endUserId")
        .select("eu.tokenHash")
        .where("v.featureRequestId", "=", id)
        .orderBy("eu.tokenHash")
        .execute()
    ).map((r) => r.tokenHash),
    count: (await db().selectFrom("featureRequests").select("voteCount").where("id", "=", id).executeTakeFirstOrThrow()).voteCount,
  });
  const minted = async (token: string) => (await db().selectFrom("endUsers").select("id").where("tokenHash", "=", tokenHash(token)).execute()).length;

  it("answers each vote of one batch in order, and writes nothing for a request that is not the app's public one", async () => {
    const open = await newRequest("Open for votes");
    const pending = await newRequest("Waiting for review");
    await db().updateTable("featureRequests").set({ moderation: "pending" }).where("id", "=", pending).execute();

    const rows = await applyVotes([
      { requestId: open, token: "ada" },
      { requestId: pending, token: "bea" },
      { requestId: "fr_does_not_exist", token: "cy" },
      { requestId: open, token: "dee" },
      // Ada again in the same batch: the toggle sees her vote of the first row and takes it back.
      { requestId: open, token: "ada" },
    ]);
    expect(rows.map(({ outcome, voted, voteCount, changed }) => ({ outcome, voted, voteCount, changed }))).toEqual([
      { outcome: "ok", voted: true, voteCount: 1, changed: true },
      { outcome: "not_found", voted: null, voteCount: null, changed: null },
      { outcome: "not_found", voted: null, voteCount: null, changed: null },
      { outcome: "ok", voted: true, voteCount: 2, changed: true },
      { outcome: "ok", voted: false, voteCount: 1, changed: true },
    ]);
    expect(rows[0]!.endUserId).toBe(rows[4]!.endUserId);
    expect(await stored(open)).toEqual({ voters: [tokenHash("dee")], count: 1 });
    expect(await stored(pending)).toEqual({ voters: [], count: 0 });
    // Refused votes mint no end user.
    expect([await minted("bea"), await minted("cy"), await minted("ada"), await minted("dee")]).toEqual([0, 0, 1, 1]);
  });

  it("writes each request's count as the batch's last vote on it left it, and the copies in the top order and on tags follow", async () => {
    const busy = await newRequest("Voted on many times in one batch");
    const even = await newRequest("Voted on and back in one batch");
    const tag = await createTag(db(), systemClock, acme.appId, { name: "Batched" });
    await bulkTag(db(), systemClock, acme.appId, { featureRequestIds: [busy, even], add: [tag.id] });
    await applyVotes([{ requestId: busy, token: "first" }]);

    const rows = await applyVotes([
      { requestId: busy, token: "gus" },
      { requestId: even, token: "hal" },
      { requestId: busy, token: "ivy" },
      { requestId: busy, token: "first" },
      { requestId: even, token: "hal" },
      { requestId: busy, token: "jo" },
    ]);
    // Each vote answers the count as it stood after it, from the count read under the lock.
    expect(rows.map(({ voted, voteCount }) => [voted, voteCount])).toEqual([
      [true, 2],
      [true, 1],
      [true, 3],
      [false, 2],
      [false, 0],
      [true, 3],
    ]);
    const copies = async (id: string) => ({
      count: (await stored(id)).count,
      top: (await db().selectFrom("featureRequestTop").select("voteCount").where("id", "=", id).executeTakeFirstOrThrow()).voteCount,
      tagged: (await db().selectFrom("featureRequestTags").select("requestVoteCount").where("featureRequestId", "=", id).executeTakeFirstOrThrow()).requestVoteCount,
    });
    expect(await copies(busy)).toEqual({ count: 3, top: 3, tagged: 3 });
    expect(await copies(even)).toEqual({ count: 0, top: 0, tagged: 0 });
    expect((await stored(busy)).voters).toEqual(["gus", "ivy", "jo"].map(tokenHash).sort());
  });

  it("reads each voter by its key on a connection that planned its votes while few voters existed", async () => {
    const request = await newRequest("Planned early");
    await db()
      .connection()
      .execute(async (conn) => {
        // What a lane's connection does after its sixth call: reuse the plans it made then.
        await sql`set plan_cache_mode = force_generic_plan`.execute(conn);
        try {
          await sql`analyze end_users`.execute(conn);
          await conn.transaction().execute((trx) => callVotes("apply_votes", trx, [{ requestId: request, token: "early" }]));
          // Thousands of voters later, before autovacuum has analyzed the table again.
          await sql`insert into end_users (id, app_id, token_hash, public_id, created_at, last_seen_at)
            select 'eu_many_' || n, ${acme.appId}, 'hash_many_' || n, 'pub_many_' || n, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'
            from generate_series(1, 3000) n`.execute(conn);
          // The backend's counts not yet reported, before and after the call: the scans of the
          // table, and the rows its index scans read.
          const counts = async (trx: Kysely<Database>) => {
            const row = (
              await sql<{ seqScan: string; idxScan: string; idxTupFetch: string }>`select seq_scan, idx_scan, idx_tup_fetch from pg_stat_xact_user_tables
                where relname = 'end_users' and schemaname = current_schema()`.execute(trx)
            ).rows[0]!;
            return { seq: Number(row.seqScan), indexed: Number(row.idxScan), read: Number(row.idxTupFetch) };
          };
          const scans = await conn.transaction().execute(async (trx) => {
            const before = await counts(trx);
            const rows = await callVotes("apply_votes", trx, [{ requestId: request, token: "late" }]);
            expect(rows.map((r) => r.outcome)).toEqual(["ok"]);
            const after = await counts(trx);
            return { seqScans: after.seq - before.seq, indexed: after.indexed > before.indexed, rowsRead: after.read - before.read };
          });
          expect({ seqScans: scans.seqScans, indexed: scans.indexed }).toEqual({ seqScans: 0, indexed: true });
          // Not the app's 3,000 voters walked by another index of `end_users` led by the app.
          expect(scans.rowsRead).toBeLessThanOrEqual(5);
        } finally {
          await sql`reset plan_cache_mode`.execute(conn);
        }
      });
    expect((await stored(request)).count).toBe(2);
  });

  it("fails a vote alone when it errs, and applies the rest of its batch", async () => {
    const id = await newRequest("Batch with a failing vote");
    const rows = await applyVotes([
      { requestId: id, token: "eve", newId: "eu_batch_taken" },
      // A new voter whose id is already taken (by Eve's, minted just before): a primary key violation.
      { requestId: id, token: "fay", newId: "eu_batch_taken" },
      { requestId: id, token: "gus" },
    ]);
    expect(rows.map(({ outcome, voted, voteCount, errorCode }) => ({ outcome, voted, voteCount, errorCode }))).toEqual([
      { outcome: "ok", voted: true, voteCount: 1, errorCode: null },
      { outcome: "error", voted: null, voteCount: null, errorCode: "23505" },
      { outcome: "ok", voted: true, voteCount: 2, errorCode: null },
    ]);
    expect(await stored(id)).toEqual({ voters: [tokenHash("eve"), tokenHash("gus")].sort(), count: 2 });
    expect(await minted("fay")).toBe(0);
  });
  // A lane's transaction that holds nothing but votes sends them as one statement, its own
  // transaction (migration 0042), unless an app of the votes has an enabled webhook endpoint.
  const endpoint = () => enabledEndpointRow(acme.appId, ["vote.added"]);

  it("applies votes alone as apply_votes does, and writes nothing while the app has an enabled webhook endpoint", async () => {
    const id = await newRequest("Votes alone");
    const rows = await callVotes("apply_votes_alone", db(), [
      { requestId: id, token: "ivy" },
      { requestId: "fr_does_not_exist", token: "jo" },
      { requestId: id, token: "kim" },
    ]);
    expect(rows.map(({ outcome, voted, voteCount }) => ({ outcome, voted, voteCount }))).toEqual([
      { outcome: "ok", voted: true, voteCount: 1 },
      { outcome: "not_found", voted: null, voteCount: null },
      { outcome: "ok", voted: true, voteCount: 2 },
    ]);
    expect(await stored(id)).toEqual({ voters: [tokenHash("ivy"), tokenHash("kim")].sort(), count: 2 });

    const hook = endpoint();
    await db().insertInto("webhookEndpoints").values(hook).execute();
    try {
      expect(await callVotes("apply_votes_alone", db(), [{ requestId: id, token: "lou" }])).toEqual([]);
      const vote = { featureRequestId: id, appId: acme.appId, token: "lou", mode: "toggle" as const, clock: systemClock };
      expect(await votesOnPostgres.alone!(db(), [vote])).toBeUndefined();
      expect(await stored(id)).toEqual({ voters: [tokenHash("ivy"), tokenHash("kim")].sort(), count: 2 });
      expect(await minted("lou")).toBe(0);
    } finally {
      await db().deleteFrom("webhookEndpoints").where("id", "=", hook.id).execute();
    }
  });

  it("rolls the votes back when an endpoint is enabled while they wait for their request", async () => {
    const id = await newRequest("Votes racing an endpoint");
    let hookId = "";
    const outcome = await db()
      .connection()
      .execute(async (holder) => {
        await sql`begin`.execute(holder);
        await sql`select id from feature_requests where id = ${id} for update`.execute(holder);
        const vote = { featureRequestId: id, appId: acme.appId, token: "max", mode: "toggle" as const, clock: systemClock };
        const alone = votesOnPostgres.alone!(db(), [vote]);
        // The votes have found no endpoint and wait for the request's row.
        let waited = false;
        for (let i = 0; i < 500 && !waited; i++) {
          const waiting = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query like '%apply_votes_alone%'`.execute(db());
          waited = waiting.rows[0]!.n > 0;
          if (!waited) await new Promise((resolve) => setImmediate(resolve));
        }
        expect(waited).toBe(true);
        const hook = endpoint();
        hookId = hook.id;
        await holder.insertInto("webhookEndpoints").values(hook).execute();
        await sql`commit`.execute(holder);
        return alone;
      });
    try {
      expect(outcome).toBeUndefined();
      expect(await stored(id)).toEqual({ voters: [], count: 0 });
      expect(await minted("max")).toBe(0);
    } finally {
      await db().deleteFrom("webhookEndpoints").where("id", "=", hookId).execute();
    }
  });
});
