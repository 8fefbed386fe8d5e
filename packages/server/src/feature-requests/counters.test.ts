import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { createTestApp, GENEROUS_RATE_LIMITS, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";
import { newPublicUserId, tokenHash } from "../users/identity.js";

/** Hundreds of requests each: more than the default budget on a busy machine. */
const SLOW = 90_000;

/** Runs `clients` loops at once, each calling `step` `rounds` times one after another. */
async function inParallel(clients: number, rounds: number, step: (client: number, round: number) => Promise<void>): Promise<void> {
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (let round = 0; round < rounds; round++) await step(client, round);
    }),
  );
}

// The cached counts of a request (`comment_count`, `vote_count`) against the rows they count,
// after many writers raced through the HTTP routes. On PostgreSQL the pool runs the writers'
// transactions on parallel connections, which is where a count-then-update loses increments.
describe.each(testDialects())("cached counts under concurrent writes on %s", (dialect) => {
  let t: TestApp;
  let acme: Awaited<ReturnType<typeof createWorkspaceWithApp>>;
  beforeAll(async () => {
    t = await createTestApp(dialect, { rateLimits: GENEROUS_RATE_LIMITS, demo: false });
    acme = await createWorkspaceWithApp(t.app, t.admin.authorization);
  });
  afterAll(() => t.close());

  const newRequest = async (title: string): Promise<string> =>
    (await acme.console.post(`/workspaces/${acme.wsId}/feature-requests`, { appId: acme.appId, title })).body.id;

  const comment = async (id: string, token: string, body: string) => {
    const res = await t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${id}/comments`, headers: { "x-user-token": token }, payload: { body } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  };

  /** What each reader sees: the stored column, the rows, the public list and the console record. */
  const commentCounts = async (id: string) => {
    const db = t.database.db.kysely;
    const stored = (await db.selectFrom("featureRequests").select("commentCount").where("id", "=", id).executeTakeFirstOrThrow()).commentCount;
    const rows = await db.selectFrom("featureRequestComments").select("id").where("featureRequestId", "=", id).where("isHidden", "=", 0).execute();
    const listed = (await t.app.inject({ url: `/api/v1/feature-requests?appKey=${acme.appKey}&limit=200` })).json().requests.find((r: { id: string }) => r.id === id);
    const thread = (await t.app.inject({ url: `/api/v1/feature-requests/${id}/comments?limit=1` })).json();
    const record = (await acme.console.get(`/workspaces/${acme.wsId}/feature-requests/${id}`)).body;
    return { stored, rows: rows.length, listed: listed.commentCount, thread: thread.total, console: record.commentCount };
  };

  it("counts every one of 400 comments posted by 50 clients at once", async () => {
    const id = await newRequest("Busy thread");
    await inParallel(50, 8, (client, round) => comment(id, `commenter-${client}`, `comment ${round}`).then(() => undefined));
    expect(await commentCounts(id)).toEqual({ stored: 400, rows: 400, listed: 400, thread: 400, console: 400 });
  }, SLOW);

  it("stays exact while the team hides, shows and deletes comments that others are posting next to", async () => {
    const id = await newRequest("Moderated thread");
    const existing: string[] = [];
    for (let i = 0; i < 60; i++) existing.push(await comment(id, `early-${i % 5}`, `early ${i}`));
    const hide = (commentId: string, isHidden: boolean) =>
      acme.console.patch(`/workspaces/${acme.wsId}/comments/${commentId}/hide`, { isHidden }).then((r) => expect(r.status).toBe(200));
    await Promise.all([
      inParallel(20, 10, (client, round) => comment(id, `late-${client}`, `late ${round}`).then(() => undefined)),
      // Each of the first 40 comments is hidden twice at once (one of them counts), the first 20
      // of those are shown again, and the last 20 are deleted, two of them while hidden.
      inParallel(40, 1, (client) => hide(existing[client]!, true)),
      inParallel(40, 1, (client) => hide(existing[client]!, true)),
      inParallel(20, 1, (client) => hide(existing[client]!, false)),
      inParallel(20, 1, (client) =>
        acme.console.delete(`/workspaces/${acme.wsId}/comments/${existing[40 + client]!}`).then((r) => expect(r.status).toBe(200)),
      ),
    ]);
    const counts = await commentCounts(id);
    expect(counts.rows).toBeGreaterThanOrEqual(200);
    expect(counts).toEqual({ stored: counts.rows, rows: counts.rows, listed: counts.rows, thread: counts.rows, console: counts.rows });
  }, SLOW);

  it("counts every vote of 300 voters at once, and every vote withdrawn", async () => {
    const id = await newRequest("Popular");
    const vote = (method: "POST" | "DELETE", token: string) =>
      t.app.inject({ method, url: `/api/v1/feature-requests/${id}/vote`, headers: { "x-user-token": token }, payload: {} }).then((r) => expect(r.statusCode).toBe(200));
    await inParallel(50, 6, (client, round) => vote("POST", `voter-${client}-${round}`));
    // Half withdraw while as many new voters come in; each withdrawal is sent twice at once.
    await Promise.all([
      inParallel(50, 3, (client, round) => vote("DELETE", `voter-${client}-${round}`)),
      inParallel(50, 3, (client, round) => vote("DELETE", `voter-${client}-${round}`)),
      inParallel(50, 3, (client, round) => vote("POST", `newcomer-${client}-${round}`)),
    ]);
    const db = t.database.db.kysely;
    const rows = await db.selectFrom("featureRequestVotes").select("endUserId").where("featureRequestId", "=", id).execute();
    const stored = await db.selectFrom("featureRequests").select("voteCount").where("id", "=", id).executeTakeFirstOrThrow();
    const listed = (await t.app.inject({ url: `/api/v1/feature-requests?appKey=${acme.appKey}&limit=200` })).json().requests.find((r: { id: string }) => r.id === id);
    expect({ rows: rows.length, stored: stored.voteCount, listed: listed.voteCount }).toEqual({ rows: 300, stored: 300, listed: 300 });
  }, SLOW);

  it("stays exact when a request is merged into another while both take comments and votes", async () => {
    const duplicate = await newRequest("Dark theme");
    const target = await newRequest("Night mode");
    const db = t.database.db.kysely;
    const act = async (id: string, token: string) => {
      const commented = await t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${id}/comments`, headers: { "x-user-token": token }, payload: { body: "me too" } });
      const voted = await t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${id}/vote`, headers: { "x-user-token": token }, payload: {} });
      // Once merged, the duplicate is no longer public: 404, nothing written.
      expect([201, 404]).toContain(commented.statusCode);
      expect([200, 404]).toContain(voted.statusCode);
    };
    await Promise.all([
      inParallel(30, 4, (client, round) => act(round % 2 === 0 ? duplicate : target, `fan-${client}`)),
      (async () => {
        for (let i = 0; i < 10; i++) await act(duplicate, `early-${i}`);
        const merged = await acme.console.post(`/workspaces/${acme.wsId}/feature-requests/${duplicate}/merge`, { intoId: target });
        expect(merged.status).toBe(200);
      })(),
    ]);
    for (const id of [duplicate, target]) {
      const stored = await db.selectFrom("featureRequests").select(["commentCount", "voteCount", "importedVotes"]).where("id", "=", id).executeTakeFirstOrThrow();
      const comments = await db.selectFrom("featureRequestComments").select("id").where("featureRequestId", "=", id).where("isHidden", "=", 0).execute();
      const votes = await db.selectFrom("featureRequestVotes").select("endUserId").where("featureRequestId", "=", id).execute();
      expect({ comments: stored.commentCount, votes: stored.voteCount }).toEqual({ comments: comments.length, votes: votes.length + stored.importedVotes });
    }
    const listed = (await t.app.inject({ url: `/api/v1/feature-requests?appKey=${acme.appKey}&limit=200` })).json().requests.find((r: { id: string }) => r.id === target);
    const comments = await db.selectFrom("featureRequestComments").select("id").where("featureRequestId", "=", target).execute();
    expect(listed.commentCount).toBe(comments.length);
    expect(comments.length).toBeGreaterThanOrEqual(70);
  }, SLOW);

  // A PostgreSQL vote waits for the request's lock inside `apply_votes`: what another
  // transaction commits meanwhile must still decide the answer.
  describe.runIf(dialect === "postgres")("while another transaction holds the request", () => {
    const db = () => t.database.db.kysely;
    const vote = (id: string, token: string) =>
      t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${id}/vote`, headers: { "x-user-token": token }, payload: {} });
    /** Resolves once a vote's statement waits for a lock held by another transaction. */
    const voteWaiting = async () => {
      for (;;) {
        const waiting = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
          where wait_event_type = 'Lock' and query like '%apply_votes%' and pid <> pg_backend_pid()`.execute(db());
        if (waiting.rows[0]!.n > 0) return;
      }
    };
    const stored = async (id: string) => ({
      votes: (await db().selectFrom("featureRequestVotes").select("endUserId").where("featureRequestId", "=", id).execute()).map((r) => r.endUserId),
      count: (await db().selectFrom("featureRequests").select("voteCount").where("id", "=", id).executeTakeFirstOrThrow()).voteCount,
    });

    it("withdraws a vote that another transaction added while the toggle waited", async () => {
      const id = await newRequest("Contended");
      const other = await newRequest("Elsewhere");
      expect((await vote(other, "waiter")).statusCode).toBe(200);
      const voter = await db().selectFrom("endUsers").select("id").where("tokenHash", "=", tokenHash("waiter")).executeTakeFirstOrThrow();
      let pending!: ReturnType<typeof vote>;
      await db()
        .transaction()
        .execute(async (trx) => {
          await trx.selectFrom("featureRequests").select("id").where("id", "=", id).forUpdate().execute();
          await trx.insertInto("featureRequestVotes").values({ featureRequestId: id, endUserId: voter.id, shipNotifyEmail: null, createdAt: new Date().toISOString() }).execute();
          await trx.updateTable("featureRequests").set({ voteCount: sql<number>`vote_count + 1` }).where("id", "=", id).execute();
          pending = vote(id, "waiter");
          await voteWaiting();
        });
      const res = await pending;
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ voted: false, voteCount: 0 });
      expect(await stored(id)).toEqual({ votes: [], count: 0 });
    });

    it("counts the vote of a voter that another transaction minted while the toggle waited", async () => {
      const id = await newRequest("Newcomer");
      const mintedId = `eu_minted_elsewhere_${Date.now()}`;
      let pending!: ReturnType<typeof vote>;
      await db()
        .transaction()
        .execute(async (trx) => {
          const now = new Date().toISOString();
          await trx
            .insertInto("endUsers")
            .values({ id: mintedId, appId: acme.appId, tokenHash: tokenHash("newcomer"), publicId: newPublicUserId(), createdAt: now, lastSeenAt: now })
            .execute();
          pending = vote(id, "newcomer");
          await voteWaiting();
        });
      const res = await pending;
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ voted: true, voteCount: 1 });
      expect(await stored(id)).toEqual({ votes: [mintedId], count: 1 });
    });
  });
});
