import { PostgresAdapter, sql, type Kysely } from "kysely";

// Frozen: never import application code here, never edit after release; add a new migration.
// PostgreSQL only: `apply_votes`, which applies a batch of votes in one round trip. Votes that
// arrive together already share a transaction and its commit (group commit), but each still
// cost the lane two round trips (its savepoint and its statement), with the lane's connection
// idle in transaction while the answer crossed to the server and the next statement came back;
// under load the server's event loop, not the database, was the limit. The function takes the
// batch as parallel arrays and applies each vote in order, each in a block of its own (a
// subtransaction, as the savepoints were), so one vote's failure rolls back that vote only and
// is reported in its row. Each statement of a block sees what committed before it started, and
// the request's row is locked first, so a vote changed or a voter minted by another transaction
// while this one waited for the lock decides the answer. SQLite needs nothing: its statements
// run in process.
//
// Per vote: `remove` false toggles (adds the caller's vote, or removes it if there is one), true
// withdraws (idempotent); `profile` true stores the SSO name, email and avatar on the voter. Out:
// `outcome` 'ok', 'not_found' (no such request, or not the app's public one: nothing written),
// 'deadlock' (this vote lost a deadlock and was rolled back; run it again) or 'error'
// (`error_code`, `error_message`: any other error, rolled back); `webhooks` whether the app has
// an enabled webhook endpoint (read only when the vote changed something).

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create function apply_votes(
    p_request_ids text[], p_app_ids text[], p_token_hashes text[], p_new_ids text[], p_new_public_ids text[],
    p_ship_emails text[], p_removes boolean[], p_profiles boolean[], p_names text[], p_emails text[], p_avatars text[],
    p_now text[]
  ) returns table (
    outcome text, end_user_id text, voted boolean, vote_count integer, changed boolean, webhooks boolean,
    error_code text, error_message text
  ) language plpgsql volatile as $fn$
#variable_conflict use_column
declare
  v_request text;
  v_voter text;
  v_added integer;
  v_removed integer;
  v_count integer;
begin
  for i in 1 .. coalesce(array_length(p_request_ids, 1), 0) loop
    outcome := 'ok'; end_user_id := null; voted := null; vote_count := null; changed := null;
    webhooks := null; error_code := null; error_message := null;
    begin
      v_request := null;
      select fr.id into v_request from feature_requests fr where fr.id = p_request_ids[i] for update;
      if v_request is null then
        raise sqlstate 'TV404';
      end if;
      v_voter := null;
      select eu.id into v_voter from end_users eu where eu.app_id = p_app_ids[i] and eu.token_hash = p_token_hashes[i];
      if v_voter is null then
        insert into end_users as eu (id, app_id, token_hash, public_id, created_at, last_seen_at)
        values (p_new_ids[i], p_app_ids[i], p_token_hashes[i], p_new_public_ids[i], p_now[i], p_now[i])
        on conflict (app_id, token_hash) do nothing
        returning eu.id into v_voter;
        -- Minted meanwhile by another transaction, which has committed by now.
        if v_voter is null then
          select eu.id into strict v_voter from end_users eu where eu.app_id = p_app_ids[i] and eu.token_hash = p_token_hashes[i];
        end if;
      end if;
      if p_profiles[i] then
        update end_users set display_name = p_names[i], email = p_emails[i], avatar_url = p_avatars[i] where id = v_voter;
      end if;
      v_added := 0;
      v_removed := 0;
      if not p_removes[i] then
        insert into feature_request_votes (feature_request_id, end_user_id, ship_notify_email, created_at)
        values (v_request, v_voter, p_ship_emails[i], p_now[i])
        on conflict (feature_request_id, end_user_id) do nothing;
        get diagnostics v_added = row_count;
      end if;
      if v_added = 0 then
        delete from feature_request_votes v where v.feature_request_id = v_request and v.end_user_id = v_voter;
        get diagnostics v_removed = row_count;
      end if;
      -- The count moves only while the request is the app's public one; a vote that moved
      -- nothing writes no new row version.
      if v_added + v_removed > 0 then
        update feature_requests fr set vote_count = fr.vote_count + v_added - v_removed
        where fr.id = v_request and fr.app_id = p_app_ids[i] and fr.moderation = 'approved' and fr.merged_into_id is null
        returning fr.vote_count into v_count;
      else
        select fr.vote_count into v_count from feature_requests fr
        where fr.id = v_request and fr.app_id = p_app_ids[i] and fr.moderation = 'approved' and fr.merged_into_id is null;
      end if;
      if not found then
        raise sqlstate 'TV404';
      end if;
      end_user_id := v_voter;
      voted := v_added > 0;
      vote_count := v_count;
      changed := v_added + v_removed > 0;
      webhooks := changed and exists (select 1 from webhook_endpoints w where w.app_id = p_app_ids[i] and w.enabled = 1);
    exception
      when sqlstate 'TV404' then
        outcome := 'not_found';
      when deadlock_detected then
        outcome := 'deadlock';
      when others then
        outcome := 'error';
        error_code := sqlstate;
        error_message := sqlerrm;
    end;
    return next;
  end loop;
end
$fn$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) await sql`drop function apply_votes(text[], text[], text[], text[], text[], text[], boolean[], boolean[], text[], text[], text[], text[])`.execute(db);
}
