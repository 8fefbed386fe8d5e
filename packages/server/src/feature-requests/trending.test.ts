import { type CompiledQuery, type KyselyPlugin, type PluginTransformQueryArgs, type PluginTransformResultArgs, type QueryResult, type UnknownRow } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../apps/apps.js";
import { MemoryCache } from "../cache/memory-cache.js";
import { appRequestSetTag, appTag } from "../context.js";
import { FakeClock } from "@tidings/testing/fake-clock";
import { openTestDatabase, testDialects, type TestDatabase } from "@tidings/testing/test-database";
import { createWorkspace } from "../workspaces/workspaces.js";
import { createFeatureRequests, importedRequest } from "./feature-requests.js";
import { listFeatureRequests, type ListQuery } from "./listing.js";
import { TRENDING_RANKING_MS } from "./trending.js";
import { applyVote } from "./votes.js";

/** Counts the statements that read the recent votes (the ranking). */
class RankingReads implements KyselyPlugin {
  count = 0;
  constructor(private readonly compile: (args: PluginTransformQueryArgs) => CompiledQuery) {}
  transformQuery(args: PluginTransformQueryArgs) {
    if (/from "feature_request_votes" as "rv"/.test(this.compile(args).sql)) this.count++;
    return args.node;
  }
  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(args.result);
  }
}

// `trending` ranks the app's requests by their votes of the last 7 days. Reading those votes costs
// an index entry per vote, so under steady voting the ranking is reused for a few seconds (shared
// by every viewer) instead of read again on every page: its order lags votes by that long, while
// each page's rows and vote counts are read fresh.
describe.each(testDialects())("the trending ranking, on %s", (dialect) => {
  let t: TestDatabase;
  const clock = new FakeClock();
  let appId: string;
  const ids: string[] = [];
  let voter = 0;

  const query: ListQuery = { appId: "", viewerEndUserId: null, limit: 3, offset: 0, cursor: undefined, versionId: undefined, q: undefined, sort: "trending" };
  const vote = (id: string) => applyVote(t.db, clock, { appId, featureRequestId: id, token: `voter-${voter++}`, mode: "toggle" });

  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    const { workspace } = await createWorkspace(t.db.kysely, clock, { name: "W", slug: "w" }, null);
    appId = (await createApp(t.db.kysely, clock, workspace.id, { name: "Board" })).row.id;
    query.appId = appId;
    for (let i = 0; i < 5; i++) {
      clock.advance(1000);
      ids.push((await createFeatureRequests(t.db.kysely, clock, dialect, appId, [importedRequest(appId, `Idea ${i}`, "Body")]))[0]!.id);
    }
  });
  afterAll(() => t.cleanup());

  it("reads the recent votes once per window, orders by them, and keeps each page's counts fresh", async () => {
    const cache = { shared: new MemoryCache(clock), tags: [appTag(appId), appRequestSetTag(appId)] };
    const reads = new RankingReads((args) => t.db.kysely.getExecutor().compileQuery(args.node, args.queryId));
    const db = t.db.kysely.withPlugin(reads);
    const page = async () => (await listFeatureRequests(db, dialect, clock, query, cache)).requests.map((r) => [r.id, r.voteCount]);

    await vote(ids[1]!);
    await vote(ids[1]!);
    await vote(ids[3]!);
    // Recently voted first (most recent votes first), then `top` order (votes, then newest).
    expect(await page()).toEqual([
      [ids[1], 2],
      [ids[3], 1],
      [ids[4], 0],
    ]);
    expect(reads.count).toBe(1);

    // Within the window, however many pages and votes: the same ranking, fresh counts.
    for (let i = 0; i < 3; i++) await vote(ids[3]!);
    clock.advance(TRENDING_RANKING_MS - 1);
    for (let i = 0; i < 10; i++) {
      expect(await page()).toEqual([
        [ids[1], 2],
        [ids[3], 4],
        [ids[4], 0],
      ]);
    }
    expect(reads.count).toBe(1);

    // Past it, the votes are read again once.
    clock.advance(1);
    expect(await page()).toEqual([
      [ids[3], 4],
      [ids[1], 2],
      [ids[4], 0],
    ]);
    expect(await page()).toHaveLength(3);
    expect(reads.count).toBe(2);

    // A change to which requests are listed (its tags) drops it at once.
    await vote(ids[0]!);
    await cache.shared.invalidateTag(appRequestSetTag(appId));
    expect((await page()).map(([id]) => id)).toEqual([ids[3], ids[1], ids[0]]);
    expect(reads.count).toBe(3);
  });
});
