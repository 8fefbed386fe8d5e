import type { FeatureRequestSort } from "@tidings/protocol";
import { CompiledQuery, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../apps/apps.js";
import { createBoard } from "../boards/boards.js";
import type { DialectName } from "../db/database.js";
import { refreshPlannerStatistics } from "../db/planner-statistics.js";
import { FakeClock } from "@tidings/testing/fake-clock";
import { recordStatements, sqlitePlan } from "@tidings/testing/statement-recorder";
import { openTestDatabase, testDialects, type TestDatabase } from "@tidings/testing/test-database";
import { bulkTag } from "../tags/request-tags.js";
import { createTag } from "../tags/tags.js";
import { ensureEndUser } from "../users/identity.js";
import { createWorkspace } from "../workspaces/workspaces.js";
import { createFeatureRequests, importedRequest } from "./feature-requests.js";
import { listFeatureRequests, type ListQuery } from "./listing.js";

/** How a plan step reads `feature_requests` or `feature_request_tags`. */
interface Step {
  table: "feature_requests" | "feature_request_tags" | "feature_request_top";
  /** The name the statement reads it by: `fr`, `ft` (the `top` order's copies), `t0` (the tag a page is read by), `frt` (another tag, looked up per request). */
  alias: string;
  /** The index it reads through, or `scan` for the whole table. */
  index: string;
  /** Read from the index alone (SQLite: a covering index; PostgreSQL: an index-only scan). */
  covering: boolean;
  /** PostgreSQL only: rows looked at (returned plus filtered out), over every loop. */
  examined: number;
}

/** One statement of a listing, as planned. */
interface Plan {
  sql: string;
  count: boolean;
  steps: Step[];
}

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  Alias?: string;
  "Index Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Index Recheck"?: number;
  Plans?: PlanNode[];
}

/**
 * How each statement of one listing page reads the requests and the tags: SQLite's EXPLAIN QUERY
 * PLAN, or PostgreSQL's EXPLAIN ANALYZE (rolled back). The statement reading the tags shown on
 * the page, by the page's ids as on every page, is left out.
 */
async function planOf(t: TestDatabase, dialect: DialectName, clock: FakeClock, q: ListQuery): Promise<Plan[]> {
  const statements = await recordStatements(t.db, () => listFeatureRequests(t.db.kysely, dialect, clock, q));
  const out: Plan[] = [];
  for (const statement of statements) {
    if (!statement.sql.includes(`"feature_requests"`) && !statement.sql.includes(`"feature_request_tags" as "t0"`) && !statement.sql.includes(`"feature_request_top" as "ft"`)) continue;
    const count = /^select count\(\*\)/.test(statement.sql);
    if (dialect === "sqlite") {
      const steps = (await sqlitePlan(t.db.kysely, statement))
        .map((step) => /^(SCAN|SEARCH) (fr|ft|t0|frt)\b(.*)$/.exec(step))
        .filter((m) => m !== null)
        .map(
          (m): Step => ({
            table: m[2] === "fr" ? "feature_requests" : m[2] === "ft" ? "feature_request_top" : "feature_request_tags",
            alias: m[2]!,
            index: /INDEX (\w+)/.exec(m[3]!)?.[1] ?? "scan",
            covering: m[3]!.includes("COVERING INDEX"),
            examined: 0,
          }),
        );
      out.push({ sql: statement.sql, count, steps });
      continue;
    }
    const steps = await t.db.kysely.transaction().execute(async (trx) => {
      const plan = await trx.executeQuery<{ "QUERY PLAN": Array<{ Plan: PlanNode }> }>(CompiledQuery.raw(`explain (analyze, format json) ${statement.sql}`, [...statement.parameters]));
      const found: Step[] = [];
      // A bitmap scan's indexes are the bitmap index scans below it.
      const indexes = (node: PlanNode): string[] => [...(node["Index Name"] === undefined ? [] : [node["Index Name"]]), ...(node.Plans ?? []).flatMap(indexes)];
      const walk = (node: PlanNode) => {
        const table = node["Relation Name"];
        if (table === "feature_requests" || table === "feature_request_tags" || table === "feature_request_top") {
          found.push({
            table,
            alias: node.Alias ?? table,
            index: node["Node Type"] === "Seq Scan" ? "scan" : (node["Index Name"] ?? indexes(node).join("+")),
            covering: node["Node Type"] === "Index Only Scan",
            examined: ((node["Actual Rows"] ?? 0) + (node["Rows Removed by Filter"] ?? 0) + (node["Rows Removed by Index Recheck"] ?? 0)) * (node["Actual Loops"] ?? 1),
          });
        }
        if (node["Node Type"] !== "Bitmap Heap Scan") for (const child of node.Plans ?? []) walk(child);
      };
      walk(plan.rows[0]!["QUERY PLAN"][0]!.Plan);
      return found;
    });
    out.push({ sql: statement.sql, count, steps });
  }
  return out;
}

/** The filtered listings the proofs cover: a board, the boards of a caller who may not see a private one, a common and a rare tag, two tags, a board and a tag. */
function filters(boards: { main: string; bugs: string }, tags: { common: string; rare: string }): Array<[string, Partial<ListQuery>]> {
  return [
    ["one board", { boardIds: [boards.bugs] }],
    ["the boards a caller may see", { boardIds: [boards.main, boards.bugs] }],
    ["a tag on one in five", { tagIds: [tags.common] }],
    ["a tag on one in a hundred", { tagIds: [tags.rare] }],
    ["two tags", { tagIds: [tags.rare, tags.common] }],
    ["a board and a tag", { boardIds: [boards.bugs], tagIds: [tags.common] }],
  ];
}

const anonymous = (appId: string, sort: FeatureRequestSort, extra: Partial<ListQuery> = {}): ListQuery => ({
  appId,
  viewerEndUserId: null,
  limit: 20,
  offset: 0,
  cursor: undefined,
  versionId: undefined,
  q: undefined,
  sort,
  ...extra,
});

/**
 * The indexes a page of `extra` is read through on SQLite: a board's order; a tag's rows in the
 * page's order (newest, or most votes first), then the requests by id; the app's order. The `top`
 * order is read from its copies (migration 0046), then the requests by id.
 */
function sqliteDrivers(extra: Partial<ListQuery>, sort: "newest" | "top"): Set<string> {
  const one = extra.boardIds?.length === 1;
  if (extra.tagIds === undefined && sort === "top") return new Set([`feature_request_top_${one ? "board" : "app"}_idx`, "sqlite_autoindex_feature_requests_1"]);
  const board = one ? `feature_requests_board_${sort}_idx` : `feature_requests_listed_${sort}_idx`;
  if (extra.tagIds === undefined) return new Set([board]);
  return new Set([`feature_request_tags_${sort}_idx`, "sqlite_autoindex_feature_requests_1"]);
}

// A listing filtered by board or tag reads the board's or the tag's requests in the listing's
// order from an index (migrations 0026 and 0030), as the unfiltered listing reads the app's: its
// pages are right, every order, cursor and total, as the tag's copies follow their requests.
describe.each(testDialects())("listings filtered by board and tag on %s", (dialect) => {
  let t: TestDatabase;
  const clock = new FakeClock();
  let appId: string;
  let boards: { main: string; bugs: string; lab: string };
  let tags: { common: string; rare: string; other: string };
  let viewer: string;
  /** Every request made, with what the listing orders and filters on. */
  const made: Array<{ id: string; createdAt: string; voteCount: number; approved: boolean; board: string; tags: string[]; requester: string | null }> = [];

  /** Requests `count` at a time, a few per clock tick (ties go by id), placed and tagged by `shape`. */
  async function make(count: number, shape: (n: number) => { board: string; tags: string[]; approved: boolean; votes: number; requester?: string }) {
    for (let i = 0; i < count; i += 200) {
      clock.advance(1000);
      const shapes = Array.from({ length: Math.min(200, count - i) }, (_, k) => shape(made.length + k));
      const inputs = shapes.map((s, k) => ({ ...importedRequest(appId, `Idea ${made.length + k}`, "Body", s.approved), boardId: s.board, requesterEndUserId: s.requester ?? null }));
      const rows = await createFeatureRequests(t.db.kysely, clock, dialect, appId, inputs);
      for (const [k, row] of rows.entries()) {
        const s = shapes[k]!;
        made.push({ id: row.id, createdAt: row.createdAt, voteCount: s.votes, approved: s.approved, board: s.board, tags: s.tags, requester: s.requester ?? null });
        if (s.votes > 0) await t.db.kysely.updateTable("featureRequests").set({ voteCount: s.votes }).where("id", "=", row.id).execute();
      }
      for (const tagId of Object.values(tags)) {
        const ids = rows.filter((_, k) => shapes[k]!.tags.includes(tagId)).map((r) => r.id);
        if (ids.length > 0) await bulkTag(t.db.kysely, clock, appId, { featureRequestIds: ids, add: [tagId] });
      }
    }
  }

  /**
   * Boards 70/20/10 % and one in ten pending (by the last digit); the common tag on one in five
   * and the rare one on two in a hundred, always with the common one (by the tens, so tags and
   * boards are independent).
   */
  const spread = (n: number) => ({
    board: n % 10 < 7 ? boards.main : n % 10 < 9 ? boards.bugs : boards.lab,
    tags: [...(Math.floor(n / 10) % 5 === 0 ? [tags.common] : []), ...([35, 70].includes(Math.floor(n / 10) % 100) ? [tags.rare] : []), ...(n % 7 === 0 ? [tags.other] : [])],
    approved: n % 10 !== 3,
    votes: (n * 13) % 9,
  });

  const query = (sort: FeatureRequestSort, extra: Partial<ListQuery> = {}) => anonymous(appId, sort, extra);

  /** What the listing should show, in its order. */
  function expected(q: ListQuery): string[] {
    return made
      .filter((r) => r.approved || (q.viewerEndUserId !== null && r.requester === q.viewerEndUserId))
      .filter((r) => q.boardIds === undefined || q.boardIds.includes(r.board))
      .filter((r) => (q.tagIds ?? []).every((tag) => r.tags.includes(tag)))
      .sort((a, b) => (q.sort === "top" ? b.voteCount - a.voteCount : 0) || (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0) || (a.id < b.id ? 1 : -1))
      .map((r) => r.id);
  }

  /** Every page, following the cursors. */
  async function everyPage(q: ListQuery) {
    const ids: string[] = [];
    const totals = new Set<number>();
    let cursor: string | undefined;
    for (let pages = 0; pages < 500; pages++) {
      const page = await listFeatureRequests(t.db.kysely, dialect, clock, { ...q, cursor });
      ids.push(...page.requests.map((r) => r.id));
      totals.add(page.total);
      if (page.nextCursor === null) return { ids, totals: [...totals] };
      cursor = page.nextCursor;
    }
    throw new Error("the listing never ended");
  }

  beforeAll(async () => {
    t = await openTestDatabase(dialect, { timeQueries: true });
    const db = t.db.kysely;
    const { workspace } = await createWorkspace(db, clock, { name: "W", slug: "w" }, null);
    appId = (await createApp(db, clock, workspace.id, { name: "Organised" })).row.id;
    const main = (await db.selectFrom("boards").select("id").where("appId", "=", appId).executeTakeFirstOrThrow()).id;
    boards = { main, bugs: (await createBoard(db, clock, appId, { name: "Bugs" })).id, lab: (await createBoard(db, clock, appId, { name: "Lab", visibility: "private" })).id };
    tags = { common: (await createTag(db, clock, appId, { name: "Common" })).id, rare: (await createTag(db, clock, appId, { name: "Rare" })).id, other: (await createTag(db, clock, appId, { name: "Other" })).id };
    viewer = (await ensureEndUser(db, clock, appId, "viewer")).id;
    await make(3000, spread);
    // The viewer's own pending requests, some carrying the common tag.
    await make(12, (n) => ({ board: n % 2 === 0 ? boards.main : boards.bugs, tags: n % 3 === 0 ? [tags.common] : [], approved: false, votes: n % 4, requester: viewer }));
    // Analyzed, as autovacuum leaves tables within a minute of such writes. Never analyzed,
    // PostgreSQL expects one row of each and joins a tag to a board by walking the board's index
    // for each tagged request: 0.2-0.3 s a count on these 3,000 requests, and 20 s of this file.
    await refreshPlannerStatistics(t.db);
  }, 120_000);
  afterAll(() => t.cleanup());

  it.each(["newest", "top"] as const)("pages through every filter in %s order, each request once, with the right total", async (sort) => {
    // No filter: the first page is read by a prepared statement of its own, the others are not.
    for (const [name, extra] of [["no filter", {}] as [string, Partial<ListQuery>], ...filters(boards, tags)]) {
      const listed = await everyPage(query(sort, { ...extra, limit: 50 }));
      expect(listed.ids, name).toEqual(expected(query(sort, extra)));
      expect(listed.totals, name).toEqual([expected(query(sort, extra)).length]);
    }
    // Small pages: many cursors into the tags' orders.
    for (const [name, extra] of filters(boards, tags).filter(([, f]) => f.tagIds !== undefined)) {
      expect((await everyPage(query(sort, { ...extra, limit: 5 }))).ids, `${name}, pages of 5`).toEqual(expected(query(sort, extra)));
    }
    // A viewer's own pending requests carrying the tag come in their place.
    const mine = query(sort, { tagIds: [tags.common], viewerEndUserId: viewer, limit: 50 });
    expect((await everyPage(mine)).ids).toEqual(expected(mine));
    // Some 400 pages: more than the default limit on a busy machine.
  }, 90_000);

  it("follows votes, approvals, merges and new times into a tag's order", async () => {
    const tagged = made.filter((r) => r.tags.includes(tags.rare) && r.approved);
    const [first, second, third] = tagged.slice(-3);
    await t.db.kysely.updateTable("featureRequests").set({ voteCount: 500 }).where("id", "=", first!.id).execute();
    first!.voteCount = 500;
    await t.db.kysely.updateTable("featureRequests").set({ mergedIntoId: third!.id }).where("id", "=", second!.id).execute();
    made.splice(made.indexOf(second!), 1);
    const waiting = made.find((r) => r.tags.includes(tags.rare) && !r.approved)!;
    await t.db.kysely.updateTable("featureRequests").set({ moderation: "approved" }).where("id", "=", waiting.id).execute();
    waiting.approved = true;
    const older = tagged[0]!;
    await t.db.kysely.updateTable("featureRequests").set({ createdAt: "2001-01-01T00:00:00.000Z" }).where("id", "=", older.id).execute();
    older.createdAt = "2001-01-01T00:00:00.000Z";
    for (const sort of ["newest", "top"] as const) {
      const q = query(sort, { tagIds: [tags.rare], limit: 7 });
      expect((await everyPage(q)).ids).toEqual(expected(q));
    }
  });
});

// The plans on an app of 100k requests, seeded by SQL (the app's write path would take minutes
// on PostgreSQL): no page of a filtered listing scans the requests or the tag it is read by, and
// its count reads no more than the app's. SQLite's planner goes by a query's shape, so the index
// it names is the proof; PostgreSQL's goes by costs and statistics (refreshed as autovacuum
// would), so it is asked on data of the size the bench measures (on a few thousand rows it rightly
// reads small tables whole), and what it did is counted: a page reads about as many requests as
// it shows, however rare the tag.
describe.each(testDialects())("plans of listings filtered by board and tag on 100k requests, on %s", (dialect) => {
  const COUNT = 100_000;
  let t: TestDatabase;
  const clock = new FakeClock();
  let appId: string;
  let boards: { main: string; bugs: string; lab: string };
  let tags: { common: string; rare: string };
  /** A tag on every request with 4 votes: 44k requests have more, so the app's `top` order meets its first one late. */
  let middling: string;

  beforeAll(async () => {
    t = await openTestDatabase(dialect, { timeQueries: true });
    const db = t.db.kysely;
    const { workspace } = await createWorkspace(db, clock, { name: "W", slug: "w" }, null);
    appId = (await createApp(db, clock, workspace.id, { name: "Big" })).row.id;
    const main = (await db.selectFrom("boards").select("id").where("appId", "=", appId).executeTakeFirstOrThrow()).id;
    boards = { main, bugs: (await createBoard(db, clock, appId, { name: "Bugs" })).id, lab: (await createBoard(db, clock, appId, { name: "Lab", visibility: "private" })).id };
    tags = { common: (await createTag(db, clock, appId, { name: "Common" })).id, rare: (await createTag(db, clock, appId, { name: "Rare" })).id };
    // One request a second from 2024-01-01: boards 70/20/10 %, one in ten pending, votes 0-8.
    // (In parentheses: SQLite's || binds tighter than its arithmetic, PostgreSQL's looser.)
    const two = (n: ReturnType<typeof sql>) => sql`substr('0' || (${n}), length('0' || (${n})) - 1)`;
    const i = sql.ref("n.i");
    const at = sql`'2024-01-' || ${two(sql`1 + ${i} / 86400`)} || 'T' || ${two(sql`(${i} % 86400) / 3600`)} || ':' || ${two(sql`(${i} % 3600) / 60`)} || ':' || ${two(sql`${i} % 60`)} || '.000Z'`;
    await sql`with recursive n(i) as (select 0 union all select i + 1 from n where i < ${COUNT - 1})
      insert into feature_requests (id, app_id, board_id, title, description, column_id, version_id, moderation, approved_at, merged_into_id,
        requester_end_user_id, requester_name, requester_email, created_by_admin, vote_count, imported_votes, comment_count,
        search_title, search_body, search_extra, custom_fields, created_at, updated_at)
      select 'fr_' || substr('0000000' || ${i}, length('0000000' || ${i}) - 7), ${appId},
        case when ${i} % 10 < 7 then ${main} when ${i} % 10 < 9 then ${boards.bugs} else ${boards.lab} end,
        'Idea ' || ${i}, '', null, null, case when ${i} % 10 = 3 then 'pending' else 'approved' end, null, null,
        null, null, null, 0, (${i} * 13) % 9, 0, 0, 'idea', '', '', '{}', ${at}, ${at}
      from n`.execute(db);
    // The common tag on one request in five, the rare one on two in a hundred, always with the
    // common one (by the tens: independent of the boards and the state, which go by the last digit).
    const tens = sql`cast(substr(id, 4) as integer) / 10`;
    await sql`insert into feature_request_tags (feature_request_id, tag_id, created_at)
      select id, ${tags.common}, created_at from feature_requests where app_id = ${appId} and ${tens} % 5 = 0`.execute(db);
    await sql`insert into feature_request_tags (feature_request_id, tag_id, created_at)
      select id, ${tags.rare}, created_at from feature_requests where app_id = ${appId} and ${tens} % 100 in (35, 70)`.execute(db);
    middling = (await createTag(db, clock, appId, { name: "Middling" })).id;
    await sql`insert into feature_request_tags (feature_request_id, tag_id, created_at)
      select id, ${middling}, created_at from feature_requests where app_id = ${appId} and vote_count = 4`.execute(db);
    // As autovacuum leaves a table after a bulk insert: vacuumed (pages marked all-visible, so an
    // index is read alone) and analyzed. Only these tables: a bare VACUUM would take every schema
    // of the database.
    if (dialect === "postgres") await sql`vacuum analyze feature_requests, feature_request_tags, feature_request_top`.execute(db);
  }, 300_000);
  // Dropping 100k requests and their tags' rows can outlast the default hook limit on a busy machine.
  afterAll(() => t.cleanup(), 120_000);

  it("seeded what the plans are asked on", async () => {
    const counted = await t.db.kysely
      .selectFrom("featureRequestTags")
      .select(["tagId", "listed", (eb) => eb.fn.countAll<number | string>().as("n")])
      .groupBy(["tagId", "listed"])
      .orderBy("tagId")
      .orderBy("listed")
      .execute();
    // The tags' copies of their requests' state came with them (migration 0030's trigger).
    const name = (id: string) => (id === tags.common ? "common" : id === tags.rare ? "rare" : "middling");
    // Votes (13 i) % 9 = 4 where i % 9 = 1; one in ten of them pending (i % 10 = 3).
    const fours = Array.from({ length: COUNT }, (_, i) => i).filter((i) => i % 9 === 1);
    const foursPending = fours.filter((i) => i % 10 === 3).length;
    expect(counted.map((c) => [name(c.tagId), c.listed, Number(c.n)]).sort()).toEqual([
      ["common", 0, 2000],
      ["common", 1, 18_000],
      ["middling", 0, foursPending],
      ["middling", 1, fours.length - foursPending],
      ["rare", 0, 200],
      ["rare", 1, 1800],
    ]);
    // And their votes (migration 0038's).
    const copies = await t.db.kysely
      .selectFrom("featureRequestTags as t0")
      .innerJoin("featureRequests as fr", "fr.id", "t0.featureRequestId")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .whereRef("t0.requestVoteCount", "<>", "fr.voteCount")
      .executeTakeFirstOrThrow();
    expect(Number(copies.n)).toBe(0);
  });

  it("reads every filtered page, and its count, through indexes", async () => {
    const unfiltered = await planOf(t, dialect, clock, anonymous(appId, "newest"));
    const countOf = (list: Plan[]) => Math.max(...list.filter((s) => s.count).flatMap((s) => s.steps.map((step) => step.examined)));
    for (const sort of ["newest", "top"] as const) {
      for (const [name, extra] of [["no filter", {}] as [string, Partial<ListQuery>], ...filters(boards, tags)]) {
        const label = `${name} ${sort}`;
        const plans = await planOf(t, dialect, clock, anonymous(appId, sort, extra));
        for (const statement of plans) {
          for (const [i, step] of statement.steps.entries()) {
            // A page never scans the requests or the tag it is read by. (A second tag is looked
            // up request by request; PostgreSQL may read its rows whole instead. And it counts
            // most of a table by reading it, as for the unfiltered count: bounded below.)
            if (dialect === "sqlite" || (!statement.count && step.alias !== "frt")) expect(step.index, `${label}: ${step.alias} in ${statement.sql}`).not.toBe("scan");
            // A count starts from an index alone.
            if (dialect === "sqlite" && statement.count && i === 0) expect(step.covering, `${label}: ${step.index} in ${statement.sql}`).toBe(true);
          }
        }
        if (dialect === "sqlite") {
          // A page's statements start from their drivers; the first `top` page of the app or a
          // board reads its requests by id from a list its copies' index gave (a subquery).
          const pages = plans.filter((s) => !s.count);
          const firstTop = sort === "top" && extra.tagIds === undefined;
          expect(new Set(firstTop ? pages.flatMap((s) => s.steps.map((step) => step.index)) : pages.map((s) => s.steps[0]!.index)), label).toEqual(sqliteDrivers(extra, sort));
        } else {
          // A filtered count looks at no more rows than the app's.
          expect(countOf(plans), label).toBeLessThanOrEqual(countOf(unfiltered));
          // A page of 20 (21 read, to know whether more follow) reads about as many requests as
          // it shows, however rare the tag, in either order: a tag's, its rows in order, then the
          // requests by id; on a board too, each of the tag's requests is checked for the board,
          // which holds one in five. (The boards a caller may see walk the app's order, nine
          // requests in ten.)
          const pageReads = plans.filter((s) => !s.count).flatMap((s) => s.steps.filter((step) => step.table !== "feature_request_tags").map((step) => step.examined));
          const bound =
            name === "a board and a tag"
                ? 2 * 5 * 21
                : name === "the boards a caller may see"
                  ? 2 * 21 * (10 / 9)
                  : 2 * 21;
          expect(Math.max(...pageReads), label).toBeLessThanOrEqual(bound);
        }
      }
    }
  });

  // A tag whose requests all sit in the middle of the app's `top` order: walking that order for
  // them passed 44k requests with more votes before the first. Its rows hold their requests'
  // votes (migration 0038), so its `top` page is read from them in order, as its `newest` page is.
  it("reads a `top` page of a tag whose requests all have middling votes from the tag's rows", async () => {
    const q = anonymous(appId, "top", { tagIds: [middling] });
    const page = await listFeatureRequests(t.db.kysely, dialect, clock, q);
    const expected = await t.db.kysely
      .selectFrom("featureRequests")
      .select("id")
      .where("appId", "=", appId)
      .where("voteCount", "=", 4)
      .where("moderation", "=", "approved")
      .orderBy("createdAt", "desc")
      .orderBy("id", "desc")
      .limit(20)
      .execute();
    expect(page.requests.map((r) => [r.id, r.voteCount])).toEqual(expected.map((r) => [r.id, 4]));
    const plans = await planOf(t, dialect, clock, q);
    if (dialect === "sqlite") {
      expect(new Set(plans.filter((s) => !s.count).map((s) => s.steps[0]!.index))).toEqual(sqliteDrivers(q, "top"));
    } else {
      const pageReads = plans.filter((s) => !s.count).flatMap((s) => s.steps.filter((step) => step.table === "feature_requests").map((step) => step.examined));
      expect(Math.max(...pageReads)).toBeLessThanOrEqual(2 * 21);
    }
  });
});
