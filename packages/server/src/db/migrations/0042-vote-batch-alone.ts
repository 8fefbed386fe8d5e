import { PostgresAdapter, sql, type Kysely } from "kysely";

// Frozen: never import application code here, never edit after release; add a new migration.
// PostgreSQL only: `apply_votes_alone`, the votes of a shared transaction that holds nothing
// else, sent as one statement outside any `begin`, so that it is its own transaction: one round
// trip where `begin`, the call and `commit` took three. Its arguments and rows are those of
// `apply_votes` (migrations 0023 and 0040), which it calls. A vote that changed something on an
// app with an enabled webhook endpoint has an event to queue in the same transaction, which one
// statement cannot do: when any of the apps has such an endpoint the function answers no rows
// and writes nothing, and when one turns up while the votes ran (an endpoint enabled meanwhile)
// it raises `TV001`, which rolls the statement back. Either way the caller runs the batch in a
// transaction instead.

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

const SIGNATURE = "text[], text[], text[], text[], text[], text[], boolean[], boolean[], text[], text[], text[], text[]";

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create function apply_votes_alone(
    p_request_ids text[], p_app_ids text[], p_token_hashes text[], p_new_ids text[], p_new_public_ids text[],
    p_ship_emails text[], p_removes boolean[], p_profiles boolean[], p_names text[], p_emails text[], p_avatars text[],
    p_now text[]
  ) returns table (
    outcome text, end_user_id text, voted boolean, vote_count integer, changed boolean, webhooks boolean,
    error_code text, error_message text
  ) language plpgsql volatile as $fn$
#variable_conflict use_column
declare
  v_rows record;
begin
  if exists (select 1 from webhook_endpoints w where w.app_id = any(p_app_ids) and w.enabled = 1) then
    return;
  end if;
  for v_rows in
    select a.outcome, a.end_user_id, a.voted, a.vote_count, a.changed, a.webhooks, a.error_code, a.error_message
    from apply_votes(p_request_ids, p_app_ids, p_token_hashes, p_new_ids, p_new_public_ids, p_ship_emails,
      p_removes, p_profiles, p_names, p_emails, p_avatars, p_now) with ordinality a
    order by a.ordinality
  loop
    if v_rows.changed and v_rows.webhooks then
      raise exception 'a webhook endpoint was enabled while the votes ran' using errcode = 'TV001';
    end if;
    outcome := v_rows.outcome; end_user_id := v_rows.end_user_id; voted := v_rows.voted; vote_count := v_rows.vote_count;
    changed := v_rows.changed; webhooks := v_rows.webhooks; error_code := v_rows.error_code; error_message := v_rows.error_message;
    return next;
  end loop;
end
$fn$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql.raw(`drop function apply_votes_alone(${SIGNATURE})`).execute(db);
}
