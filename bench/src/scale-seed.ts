/**
 * Seeds boards of any size (10k to 1M requests and more) as the server would have written them:
 * requests through the server's own bulk writer (rows, search text, SQLite's FTS index, `created`
 * events), then voters, votes and comments in big `INSERT … SELECT` statements that run unchanged
 * on SQLite and PostgreSQL (a recursive CTE numbers the votes of each request), and finally the
 * counters every listing reads (`vote_count`, `comment_count`) recounted from the stored rows.
 *
 * The board's shape is a pure function of a request's number, exported so a test can check the
 * public API against it:
 * - one request in 20 waits for review (pending), the rest are approved;
 * - approved requests get 0 to 20 votes (10 on average) from distinct voters;
 * - one approved request in 5 has 3 comments;
 * - two in 50 are on the roadmap (planned, in progress) and one in 50 has shipped;
 * - an app has 20 published changelog entries.
 */
import { data, systemClock, type Db } from "@tidings/server";
import { sql } from "kysely";

/** The server's query builder (its schema is not exported on its own). */
type Kysely = Db["kysely"];

/** Words the titles are made of, so searches find a realistic share of the board. */
export const WORDS = ["dark", "mode", "export", "sync", "offline", "widget", "calendar", "share", "import", "theme", "search", "filter", "reminder", "backup", "watch"];
/** Most votes a request gets; the average is half of it. */
const MAX_VOTES = 20;
const COMMENTS_PER_DISCUSSED = 3;
const CHANGELOG_ENTRIES = 20;
/** Requests written per transaction: bounds the memory the seeder holds, whatever the size. */
const CHUNK = 5_000;
/** Requests whose votes one statement writes. */
const VOTE_RANGE = 50_000;

export const isPending = (i: number) => i % 20 === 19;
export const votesOf = (i: number) => (isPending(i) ? 0 : (i * 7919) % (MAX_VOTES + 1));
export const commentsOf = (i: number) => (!isPending(i) && i % 5 === 0 ? COMMENTS_PER_DISCUSSED : 0);
/** Slug of the roadmap column request `i` is in. */
export const columnOf = (i: number) => (isPending(i) ? "under-review" : (["planned", "in-progress", "shipped"][i % 50] ?? "under-review"));
/** Distinct voters of an app of `requests` requests: enough that no request repeats one. */
export const votersFor = (requests: number) => Math.max(50, Math.min(100_000, Math.ceil(requests / 2)));
export const titleOf = (i: number) => `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} request ${i}`;
/** When request `i` was created: one a minute, the newest a minute before `end`. */
const createdAt = (i: number, requests: number, end: number) => new Date(end - (requests - i) * 60_000).toISOString();

export interface SeededApp {
  appId: string;
  appKey: string;
  /** Ids of the 100 newest approved requests. */
  recentIds: string[];
}

/** A workspace to hold seeded apps, without a submission quota (benches propose thousands). */
export async function seedWorkspace(db: Db, slug = "bench"): Promise<string> {
  return db.kysely.transaction().execute(async (trx) => {
    const { workspace } = await data.createWorkspace(trx, systemClock, { name: "Bench", slug }, null);
    await trx.updateTable("workspaces").set({ monthlySubmissionQuota: null }).where("id", "=", workspace.id).execute();
    return workspace.id;
  });
}

/**
 * An app of `requests` requests in the workspace, shaped as the module's header says.
 *
 * @example
 * ```ts
 * const workspaceId = await seedWorkspace(db);
 * const { appKey } = await seedApp(db, workspaceId, "Big board", 100_000);
 * ```
 */
export async function seedApp(db: Db, workspaceId: string, name: string, requests: number): Promise<SeededApp> {
  const { kysely, dialect } = db;
  const end = systemClock.now().getTime();
  const app = await kysely.transaction().execute(async (trx) => (await data.createApp(trx, systemClock, workspaceId, { name })).row);
  const columns = new Map((await kysely.selectFrom("boardColumns").select(["id", "slug"]).where("appId", "=", app.id).execute()).map((c) => [c.slug, c.id]));
  for (let from = 0; from < requests; from += CHUNK) {
    await kysely.transaction().execute(async (trx) => {
      const inputs = Array.from({ length: Math.min(CHUNK, requests - from) }, (_, k) => {
        const i = from + k;
        return {
          ...data.importedRequest(app.id, titleOf(i), `Please add ${WORDS[(i * 3) % WORDS.length]} support (${i}).`, !isPending(i)),
          columnId: columns.get(columnOf(i))!,
          createdAt: createdAt(i, requests, end),
        };
      });
      await data.createFeatureRequests(trx, systemClock, dialect, app.id, inputs);
    });
  }
  const voters = votersFor(requests);
  await kysely.transaction().execute(async (trx) => {
    const now = new Date(end).toISOString();
    for (let from = 0; from < voters; from += 500) {
      const rows = Array.from({ length: Math.min(500, voters - from) }, (_, k) => ({
        id: voterId(app.id, from + k),
        appId: app.id,
        tokenHash: `seeded-${from + k}`,
        publicId: `u_${app.id}_${from + k}`,
        createdAt: now,
        lastSeenAt: now,
      }));
      await trx.insertInto("endUsers").values(rows).execute();
    }
  });
  for (let from = 0; from < requests; from += VOTE_RANGE) {
    await kysely.transaction().execute(async (trx) => {
      await insertVotes(trx, app.id, voters, from, from + VOTE_RANGE);
      await insertComments(trx, app.id, voters, from, from + VOTE_RANGE);
    });
  }
  await kysely.transaction().execute(async (trx) => {
    await sql`update feature_requests set
        vote_count = imported_votes + (select count(*) from feature_request_votes v where v.feature_request_id = feature_requests.id),
        comment_count = (select count(*) from feature_request_comments c where c.feature_request_id = feature_requests.id and c.is_hidden = 0)
      where app_id = ${app.id}`.execute(trx);
    await seedChangelog(trx, app.id, end);
  });
  const recent = await kysely
    .selectFrom("featureRequests")
    .select("id")
    .where("appId", "=", app.id)
    .where("moderation", "=", "approved")
    .orderBy("createdAt", "desc")
    .limit(100)
    .execute();
  return { appId: app.id, appKey: app.appKey, recentIds: recent.map((r) => r.id) };
}

const voterId = (appId: string, n: number) => `eu_seed_${appId}_${n}`;

/** Requests of the app numbered in creation order (`n` from 0), as a CTE both engines run. */
const numbered = (appId: string) =>
  sql`numbered as (select id, moderation, created_at, row_number() over (order by created_at, id) - 1 as n from feature_requests where app_id = ${appId})`;
// Numbers are written into the statements as literals: better-sqlite3 binds a JS number as a
// real, and `cast(45.0 as text)` is "45.0", not the voter id's "45".
const series = sql`series(j) as (select 0 union all select j + 1 from series where j < ${sql.lit(MAX_VOTES - 1)})`;
/** The voter of the `j`th vote on request `n`: distinct for every j of one request. */
const voterOf = (appId: string, voters: number) => sql`${`eu_seed_${appId}_`} || cast((r.n * 31 + s.j) % ${sql.lit(voters)} as text)`;

/** Votes of requests numbered [from, to): `votesOf(n)` each, as the formula above says in SQL. */
async function insertVotes(trx: Kysely, appId: string, voters: number, from: number, to: number): Promise<void> {
  await sql`with recursive ${series}, ${numbered(appId)}
    insert into feature_request_votes (feature_request_id, end_user_id, ship_notify_email, created_at)
    select r.id, ${voterOf(appId, voters)}, null, r.created_at
    from numbered r join series s on s.j < (r.n * 7919) % ${sql.lit(MAX_VOTES + 1)}
    where r.moderation = 'approved' and r.n >= ${sql.lit(from)} and r.n < ${sql.lit(to)}`.execute(trx);
}

/** Comments of requests numbered [from, to): `commentsOf(n)` each, by their voters. */
async function insertComments(trx: Kysely, appId: string, voters: number, from: number, to: number): Promise<void> {
  await sql`with recursive ${series}, ${numbered(appId)}
    insert into feature_request_comments (id, feature_request_id, end_user_id, author_name, body, is_team, is_hidden, created_at, updated_at)
    select 'cmt_seed_' || r.id || '_' || cast(s.j as text), r.id, ${voterOf(appId, voters)}, 'Seeded user',
      'We need this too, for the whole team (' || cast(s.j as text) || ').', 0, 0, r.created_at, r.created_at
    from numbered r join series s on s.j < ${sql.lit(COMMENTS_PER_DISCUSSED)}
    where r.moderation = 'approved' and r.n % 5 = 0 and r.n >= ${sql.lit(from)} and r.n < ${sql.lit(to)}`.execute(trx);
}

/** Published changelog entries, one a week back from `end`. */
async function seedChangelog(trx: Kysely, appId: string, end: number): Promise<void> {
  const rows = Array.from({ length: CHANGELOG_ENTRIES }, (_, k) => {
    const at = new Date(end - k * 7 * 86_400_000).toISOString();
    return { id: `cl_seed_${appId}_${k}`, appId, title: `Release ${CHANGELOG_ENTRIES - k}`, body: `## What's new\n\n- ${WORDS[k % WORDS.length]} is faster\n- fixes`, versionLabel: null, versionId: null, status: "published" as const, scheduledAt: null, publishedAt: at, notifiedAt: at, createdAt: at, updatedAt: at };
  });
  await trx.insertInto("changelogEntries").values(rows).execute();
}
