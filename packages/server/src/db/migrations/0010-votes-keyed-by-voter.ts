import { PostgresAdapter, sql, type Kysely } from "kysely";

// Frozen: never import application code here, never edit after release; add a new migration.
// A vote is identified by its request and its voter: that pair becomes the primary key and the
// separate `id` column goes. On SQLite the table is rebuilt WITHOUT ROWID, so a vote is one entry
// in one b-tree ordered by request and voter, where it was a row plus entries in three indexes
// (the id, the unique pair, the request and time). The (request, time) index goes on both
// engines: `trending` reads recent votes through the (time, request) index of 0009. Each vote
// then writes three b-trees instead of six, which is most of what a vote costs SQLite.

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

async function columns(db: Kysely<unknown>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from pragma_table_info('feature_request_votes')`.execute(db);
  return rows.map((r) => r.name);
}

/** SQLite: rebuilds the votes table as `definition`, filled by `copy` (a select list over the old one). */
async function rebuild(db: Kysely<unknown>, definition: string, copy: string, indexes: string[]): Promise<void> {
  // One transaction: a crash leaves the old table or the new one, never half of each.
  await db.transaction().execute(async (trx) => {
    await sql.raw(`create table feature_request_votes_next ${definition}`).execute(trx);
    await sql.raw(`insert into feature_request_votes_next select ${copy} from feature_request_votes`).execute(trx);
    await sql`drop table feature_request_votes`.execute(trx);
    await sql`alter table feature_request_votes_next rename to feature_request_votes`.execute(trx);
    for (const index of indexes) await sql.raw(index).execute(trx);
  });
}

const REFERENCES = `feature_request_id text not null references feature_requests (id) on delete cascade,
  end_user_id text not null references end_users (id) on delete cascade,
  ship_notify_email text,
  created_at text not null`;
const USER_INDEX = "create index feature_request_votes_user_idx on feature_request_votes (end_user_id)";
const CREATED_INDEX = "create index feature_request_votes_created_idx on feature_request_votes (created_at, feature_request_id)";

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop index feature_request_votes_recent_idx`.execute(db);
    await sql`alter table feature_request_votes drop constraint feature_request_votes_unique`.execute(db);
    // Dropping the column drops its primary key.
    await sql`alter table feature_request_votes drop column id`.execute(db);
    await sql`alter table feature_request_votes add constraint feature_request_votes_pkey primary key (feature_request_id, end_user_id)`.execute(db);
    return;
  }
  // A run interrupted after the rebuild committed, before it was recorded, has nothing left to do.
  if (!(await columns(db)).includes("id")) return;
  await rebuild(
    db,
    `(${REFERENCES}, primary key (feature_request_id, end_user_id)) without rowid`,
    "feature_request_id, end_user_id, ship_notify_email, created_at",
    [USER_INDEX, CREATED_INDEX],
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql`alter table feature_request_votes drop constraint feature_request_votes_pkey`.execute(db);
    await sql`alter table feature_request_votes add column id text`.execute(db);
    await sql`update feature_request_votes set id = 'vote_' || md5(feature_request_id || ' ' || end_user_id)`.execute(db);
    await sql`alter table feature_request_votes add primary key (id)`.execute(db);
    await sql`alter table feature_request_votes add constraint feature_request_votes_unique unique (feature_request_id, end_user_id)`.execute(db);
    await sql`create index feature_request_votes_recent_idx on feature_request_votes (feature_request_id, created_at)`.execute(db);
    return;
  }
  if ((await columns(db)).includes("id")) return;
  await rebuild(
    db,
    `(id text primary key, ${REFERENCES}, constraint feature_request_votes_unique unique (feature_request_id, end_user_id))`,
    "'vote_' || lower(hex(randomblob(13))), feature_request_id, end_user_id, ship_notify_email, created_at",
    [USER_INDEX, "create index feature_request_votes_recent_idx on feature_request_votes (feature_request_id, created_at)", CREATED_INDEX],
  );
}
