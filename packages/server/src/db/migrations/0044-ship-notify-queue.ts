import { PostgresAdapter, sql, type Kysely } from "kysely";

// Frozen: never import application code here, never edit after release; add a new migration.
// The background step that turns votes with a `ship_notify_email` into ship subscriptions looked
// for them with `ship_notify_email is not null` over every vote, each time it ran (every few
// seconds): no index holds that column, so each run read the whole votes table. With 2 million
// votes that took over a second, on SQLite on the server's own thread. Those votes are now queued
// as they are written, by a trigger (so every vote path, batched or not, queues them without code
// of its own), and the step reads the queue and removes what it has handled: each run costs what
// is new since the last one. A vote removed before the step reached it leaves its queue row
// behind; the step drops such rows.
//
// The step that mails confirmed ship subscribers once their request shipped read every email
// subscription for the same reason (its index starts with the app): it now has one that starts
// with what it filters on.

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("ship_notify_queue")
    .addColumn("feature_request_id", "text", (c) => c.notNull())
    .addColumn("end_user_id", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("ship_notify_queue_pk", ["feature_request_id", "end_user_id"])
    .execute();

  if (isPostgres(db)) {
    await sql`create function ship_notify_queue_add() returns trigger language plpgsql as $fn$
begin
  insert into ship_notify_queue (feature_request_id, end_user_id) values (new.feature_request_id, new.end_user_id)
  on conflict do nothing;
  return null;
end
$fn$`.execute(db);
    await sql`create trigger ship_notify_queue_add
    after insert on feature_request_votes
    for each row when (new.ship_notify_email is not null)
    execute function ship_notify_queue_add()`.execute(db);
  } else {
    await sql`create trigger ship_notify_queue_add after insert on feature_request_votes
    when new.ship_notify_email is not null
    begin
      insert or ignore into ship_notify_queue (feature_request_id, end_user_id) values (new.feature_request_id, new.end_user_id);
    end`.execute(db);
  }

  // What the step had not handled yet: votes with an address and no ship subscription for it.
  await sql`insert into ship_notify_queue (feature_request_id, end_user_id)
    select v.feature_request_id, v.end_user_id from feature_request_votes v
    where v.ship_notify_email is not null
      and not exists (select 1 from email_subscriptions s
        where s.kind = 'ship' and s.feature_request_id = v.feature_request_id and s.email = lower(trim(v.ship_notify_email)))`.execute(db);

  await db.schema.createIndex("email_subscriptions_due_idx").on("email_subscriptions").columns(["kind", "status", "notified_at"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("email_subscriptions_due_idx").execute();
  if (isPostgres(db)) {
    await sql`drop trigger ship_notify_queue_add on feature_request_votes`.execute(db);
    await sql`drop function ship_notify_queue_add()`.execute(db);
  } else {
    await sql`drop trigger ship_notify_queue_add`.execute(db);
  }
  await db.schema.dropTable("ship_notify_queue").execute();
}
