import { PostgresAdapter, sql, type Kysely } from "kysely";

// Frozen: never import application code here, never edit after release; add a new migration.
// `ship_due_queue`: requests whose confirmed ship subscribers may be due a "shipped" mail. The
// step that sends those mails read every confirmed subscriber not yet mailed, each time it ran
// (every few seconds), to find the few whose request had shipped: with 50,000 subscribers waiting
// for requests still open, 65 ms per tick on SQLite, on the thread that serves requests. Triggers
// now queue a request at each moment one of its subscribers can become due:
// - a `shipped` event is recorded for it;
// - a changelog entry it is linked to is published, or it is linked to a published entry;
// - one of its ship subscriptions is confirmed (its request may have shipped already).
// The step reads the queue, mails what is due for each request queued, and removes it. The
// requests that had confirmed subscribers not mailed yet are queued here once.

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("ship_due_queue")
    .addColumn("feature_request_id", "text", (c) => c.primaryKey())
    .execute();

  if (isPostgres(db)) {
    await sql`create function ship_due_queue_add(p_request text) returns void language sql as $fn$
  insert into ship_due_queue (feature_request_id) values (p_request) on conflict do nothing
$fn$`.execute(db);
    // The row's own request: a shipped event's, a confirmed ship subscription's.
    await sql`create function ship_due_on_row() returns trigger language plpgsql as $fn$
begin
  perform ship_due_queue_add(new.feature_request_id);
  return null;
end
$fn$`.execute(db);
    await sql`create trigger ship_due_on_event after insert on feature_request_events
    for each row when (new.type = 'shipped') execute function ship_due_on_row()`.execute(db);
    await sql`create function ship_due_on_publish() returns trigger language plpgsql as $fn$
begin
  insert into ship_due_queue (feature_request_id)
    select l.feature_request_id from changelog_entry_requests l where l.entry_id = new.id
  on conflict do nothing;
  return null;
end
$fn$`.execute(db);
    await sql`create trigger ship_due_on_publish after update of status on changelog_entries
    for each row when (new.status = 'published' and old.status is distinct from 'published') execute function ship_due_on_publish()`.execute(db);
    await sql`create function ship_due_on_link() returns trigger language plpgsql as $fn$
begin
  if exists (select 1 from changelog_entries e where e.id = new.entry_id and e.status = 'published') then
    perform ship_due_queue_add(new.feature_request_id);
  end if;
  return null;
end
$fn$`.execute(db);
    await sql`create trigger ship_due_on_link after insert on changelog_entry_requests
    for each row execute function ship_due_on_link()`.execute(db);
    await sql`create trigger ship_due_on_confirm after insert or update of status on email_subscriptions
    for each row when (new.kind = 'ship' and new.status = 'confirmed' and new.feature_request_id is not null) execute function ship_due_on_row()`.execute(db);
  } else {
    await sql`create trigger ship_due_on_event after insert on feature_request_events
    when new.type = 'shipped'
    begin
      insert or ignore into ship_due_queue (feature_request_id) values (new.feature_request_id);
    end`.execute(db);
    await sql`create trigger ship_due_on_publish after update of status on changelog_entries
    when new.status = 'published' and old.status is not 'published'
    begin
      insert or ignore into ship_due_queue (feature_request_id)
        select l.feature_request_id from changelog_entry_requests l where l.entry_id = new.id;
    end`.execute(db);
    await sql`create trigger ship_due_on_link after insert on changelog_entry_requests
    when exists (select 1 from changelog_entries e where e.id = new.entry_id and e.status = 'published')
    begin
      insert or ignore into ship_due_queue (feature_request_id) values (new.feature_request_id);
    end`.execute(db);
    await sql`create trigger ship_due_on_confirm_insert after insert on email_subscriptions
    when new.kind = 'ship' and new.status = 'confirmed' and new.feature_request_id is not null
    begin
      insert or ignore into ship_due_queue (feature_request_id) values (new.feature_request_id);
    end`.execute(db);
    await sql`create trigger ship_due_on_confirm_update after update of status on email_subscriptions
    when new.kind = 'ship' and new.status = 'confirmed' and new.feature_request_id is not null
    begin
      insert or ignore into ship_due_queue (feature_request_id) values (new.feature_request_id);
    end`.execute(db);
  }

  await sql`insert into ship_due_queue (feature_request_id)
    select distinct s.feature_request_id from email_subscriptions s
    where s.kind = 'ship' and s.status = 'confirmed' and s.notified_at is null and s.feature_request_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop trigger ship_due_on_event on feature_request_events`.execute(db);
    await sql`drop trigger ship_due_on_publish on changelog_entries`.execute(db);
    await sql`drop trigger ship_due_on_link on changelog_entry_requests`.execute(db);
    await sql`drop trigger ship_due_on_confirm on email_subscriptions`.execute(db);
    for (const fn of ["ship_due_on_row()", "ship_due_on_publish()", "ship_due_on_link()", "ship_due_queue_add(text)"]) {
      await sql.raw(`drop function ${fn}`).execute(db);
    }
  } else {
    for (const trigger of ["ship_due_on_event", "ship_due_on_publish", "ship_due_on_link", "ship_due_on_confirm_insert", "ship_due_on_confirm_update"]) {
      await sql.raw(`drop trigger ${trigger}`).execute(db);
    }
  }
  await db.schema.dropTable("ship_due_queue").execute();
}
