import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../apps/apps.js";
import { FakeClock } from "@tidings/testing/fake-clock";
import { openTestDatabase, testDialects, type TestDatabase } from "@tidings/testing/test-database";
import { ensureEndUser } from "../users/identity.js";
import { createWorkspace } from "../workspaces/workspaces.js";
import { addComment } from "./comments.js";
import { createFeatureRequests, importedRequest } from "./feature-requests.js";
import { listFeatureRequests } from "./listing.js";

// A listed request names its recent commenters: up to three distinct authors among its 20 latest
// visible comments, newest first (a person once by their public id, the team once, anyone else by
// name), and whether there are more. The database keeps them on the request's row (migration
// 0052), so every way a thread changes must reach them: comments added, hidden, shown, renamed,
// moved to another request (a merge) and deleted, in any order. Each run applies a random series
// of such changes to two requests and compares what the listing shows with the rule applied to
// the comments as stored.

type Author = { kind: "person"; token: string; name: string | null } | { kind: "team"; name: string } | { kind: "guest"; name: string | null };

const author: fc.Arbitrary<Author> = fc.oneof(
  fc.record({ kind: fc.constant("person" as const), token: fc.constantFrom("ann", "bob", "cat", "dan", "eve"), name: fc.constantFrom("Ann", "Bob", "Cat", "Dan", "Eve", "Renamed", null) }),
  fc.record({ kind: fc.constant("team" as const), name: fc.constantFrom("Sam (team)", "Kim (team)") }),
  fc.record({ kind: fc.constant("guest" as const), name: fc.constantFrom("Guest", "Visitor", "Ann", null) }),
);

type Change =
  | { op: "add"; on: 0 | 1; author: Author; later: boolean; count: number }
  | { op: "hide" | "show" | "delete" | "rename"; pick: number }
  | { op: "move"; from: 0 | 1 };

const side = fc.constantFrom(0 as const, 1 as const);
const change: fc.Arbitrary<Change> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ op: fc.constant("add" as const), on: side, author, later: fc.boolean(), count: fc.integer({ min: 1, max: 8 }) }) },
  { weight: 4, arbitrary: fc.record({ op: fc.constantFrom("hide" as const, "show" as const, "delete" as const, "rename" as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("move" as const), from: side }) },
);

interface StoredComment {
  id: string;
  featureRequestId: string;
  authorName: string | null;
  isTeam: number;
  isHidden: number;
  createdAt: string;
  publicId: string | null;
}

/** The rule, applied to a request's comments as stored. */
function expected(comments: StoredComment[]) {
  const latest = comments
    .filter((c) => c.isHidden === 0)
    .sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1))
    .slice(0, 20);
  const seen = new Set<string>();
  const out: Array<{ authorName: string | null; clerkUserId: string | null; avatarUrl: null }> = [];
  for (const c of latest) {
    const who = c.publicId ?? (c.isTeam === 1 ? "team" : `name:${c.authorName ?? ""}`);
    if (seen.has(who)) continue;
    seen.add(who);
    out.push({ authorName: c.authorName, clerkUserId: c.publicId, avatarUrl: null });
  }
  return { recentCommenters: out.slice(0, 3), hasMoreCommenters: out.length > 3 };
}

describe.each(testDialects())("recent commenters on %s", (dialect) => {
  let t: TestDatabase;
  const clock = new FakeClock();
  let workspaceId: string;
  let runs = 0;

  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    workspaceId = (await createWorkspace(t.db.kysely, clock, { name: "Commenters", slug: "commenters" }, null)).workspace.id;
  });
  afterAll(() => t.cleanup());

  const stored = (requestIds: string[]) =>
    t.db.kysely
      .selectFrom("featureRequestComments as cm")
      .leftJoin("endUsers as eu", "eu.id", "cm.endUserId")
      .select(["cm.id", "cm.featureRequestId", "cm.authorName", "cm.isTeam", "cm.isHidden", "cm.createdAt", "eu.publicId"])
      .where("cm.featureRequestId", "in", requestIds)
      .orderBy("cm.id")
      .execute();

  it("names on every listed request what its stored comments say, whatever changed them", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(change, { minLength: 1, maxLength: 14 }), async (changes) => {
        const db = t.db.kysely;
        const appId = (await createApp(db, clock, workspaceId, { name: `Run ${++runs}` })).row.id;
        const requests = (await createFeatureRequests(db, clock, dialect, appId, [importedRequest(appId, "First", ""), importedRequest(appId, "Second", "")])).map((r) => r.id);
        // After every change, each request shows what the rule makes of its stored comments.
        const shownAsStored = async (after: Change | undefined) => {
          const page = await listFeatureRequests(db, dialect, clock, { appId, viewerEndUserId: null, limit: 10, offset: 0, cursor: undefined, versionId: undefined, q: undefined, sort: "newest" });
          const comments = await stored(requests);
          for (const id of requests) {
            const item = page.requests.find((r) => r.id === id)!;
            const shown = { recentCommenters: item.recentCommenters, hasMoreCommenters: item.hasMoreCommenters };
            expect(shown, JSON.stringify(after)).toEqual(expected(comments.filter((c) => c.featureRequestId === id)));
          }
        };
        await shownAsStored(undefined);
        for (const c of changes) {
          const all = await stored(requests);
          const picked = all.length === 0 || !("pick" in c) ? undefined : all[c.pick % all.length]!;
          if (c.op === "add") {
            const endUserId = c.author.kind === "person" ? (await ensureEndUser(db, clock, appId, c.author.token)).id : null;
            for (let i = 0; i < c.count; i++) {
              // Some comments share their second with the one before: the id orders them.
              if (c.later || i > 0) clock.advance(1000);
              await db.transaction().execute((trx) =>
                addComment(trx, clock, { featureRequestId: requests[c.on]!, body: "Me too", authorName: c.author.name, authorEmail: null, endUserId, teamUserId: null, isTeam: c.author.kind === "team", parentId: null }),
              );
            }
          } else if (c.op === "move") {
            await db.updateTable("featureRequestComments").set({ featureRequestId: requests[1 - c.from]! }).where("featureRequestId", "=", requests[c.from]!).execute();
          } else if (picked !== undefined) {
            const comment = db.updateTable("featureRequestComments").where("id", "=", picked.id);
            if (c.op === "hide") await comment.set({ isHidden: 1 }).execute();
            if (c.op === "show") await comment.set({ isHidden: 0 }).execute();
            if (c.op === "rename") await comment.set({ authorName: `${picked.authorName ?? "Anonymous"} (edited)` }).execute();
            if (c.op === "delete") await db.deleteFrom("featureRequestComments").where("id", "=", picked.id).execute();
          }
          await shownAsStored(c);
        }
      }),
      { numRuns: dialect === "postgres" ? 40 : 80 },
    );
  }, 120_000);
});
