import DataLoader from "dataloader";
import { sql, type Kysely } from "kysely";
import { preparedQuery } from "../db/prepared-query.js";
import type { Database } from "../db/schema.js";
import { ownWindowOf, type OwnPendingRow } from "./own-pending.js";

/**
 * One viewer to look up: the end user behind a token hash, and a page's range of request ids;
 * `own` asks for their window of pending requests too (a listing merges it into its page).
 */
export interface ViewerKey {
  appId: string;
  hash: string;
  from: string;
  to: string;
  own: boolean;
}

/** What PostgreSQL answers about a viewer it knows. */
export interface ViewerRow {
  id: string;
  publicId: string;
  voted: string[];
  /** Their window of pending requests (see own-pending.ts), newest first; empty when not asked. */
  own: OwnPendingRow[];
}

/** A row of {@link viewersByKeys}: the viewer, with one request of their window or none. */
type ViewerWindowRow = { ord: number; viewerId: string; viewerPublicId: string; voted: string[] } & ({ id: string } & OwnPendingRow | { id: null });

/** Most viewers one statement looks up. */
const MAX_BATCH = 64;

/**
 * Every viewer of the batch in one statement: the end user, their votes in the page's range, and
 * (when asked) their window of pending requests with each one's item row, one row per request of
 * the window, or one without a request for a viewer with none (`ord` says which key a row
 * answers). The window came from a statement of its own, a second round trip for every page of
 * a viewer with a pending request: most signed-in readers, once proposals wait for review. A fixed
 * text with array parameters, so it stays prepared; each array is read by a subquery, so that the
 * planner estimates its length as unknown whatever it holds: read as a value, an array of one key
 * made every plan for its values cheaper than the generic one, and PostgreSQL planned the
 * statement anew on every execution (1–2.5 ms, several times what running it takes).
 */
const viewersByKeys = preparedQuery<
  { appIds: string[]; hashes: string[]; froms: string[]; tos: string[]; owns: boolean[] },
  ViewerWindowRow
>((db, p) => ({
  // Raw SQL, compiled by the database's own executor (a raw query needs one named).
  compile: () =>
    sql<ViewerWindowRow>`with viewer as materialized (select k.ord, k.app_id, k.own, eu.id, eu.public_id,
      coalesce((select array_agg(v.feature_request_id) from feature_request_votes v
        where v.end_user_id = eu.id and v.feature_request_id >= k.from_id and v.feature_request_id <= k.to_id), '{}') as voted
      from unnest((select ${p.appIds}::text[]), (select ${p.hashes}::text[]), (select ${p.froms}::text[]), (select ${p.tos}::text[]), (select ${p.owns}::boolean[]))
        with ordinality as k(app_id, hash, from_id, to_id, own, ord)
      join end_users eu on eu.app_id = k.app_id and eu.token_hash = k.hash)
    select viewer.ord, viewer.id as viewer_id, viewer.public_id as viewer_public_id, viewer.voted, w.*
    from viewer left join lateral (${ownWindowOf(db, sql.ref("viewer.app_id"), sql.ref("viewer.id"), sql.ref("viewer.own"))}) w on true`.compile(db),
}));

const loaders = new WeakMap<Kysely<Database>, DataLoader<ViewerKey, ViewerRow | undefined>>();

/**
 * Looks viewers up on PostgreSQL, the lookups of requests that arrive together answered by one
 * statement: a page read by many distinct signed-in users costs a round trip per batch instead
 * of one per reader, which is what kept PostgreSQL behind SQLite (where a lookup is a function
 * call). A batch gathers what the event loop's current turn asked for (dispatched on
 * `setImmediate`, so a lone reader waits for nothing) and nothing is remembered between
 * batches: every answer is read fresh. Lookups on a transaction batch only with that transaction's.
 *
 * @example
 * ```ts
 * const row = await pageViewers(db).load({ appId, hash: tokenHash(token), from, to });
 * ```
 */
export function pageViewers(db: Kysely<Database>): DataLoader<ViewerKey, ViewerRow | undefined> {
  let loader = loaders.get(db);
  if (loader === undefined) {
    loader = new DataLoader<ViewerKey, ViewerRow | undefined>((keys) => lookUp(db, keys), {
      cache: false,
      maxBatchSize: MAX_BATCH,
      batchScheduleFn: (dispatch) => setImmediate(dispatch),
    });
    loaders.set(db, loader);
  }
  return loader;
}

async function lookUp(db: Kysely<Database>, keys: readonly ViewerKey[]): Promise<Array<ViewerRow | undefined>> {
  const rows = await viewersByKeys.rows(db, {
    appIds: keys.map((k) => k.appId),
    hashes: keys.map((k) => k.hash),
    froms: keys.map((k) => k.from),
    tos: keys.map((k) => k.to),
    owns: keys.map((k) => k.own),
  });
  const answers: Array<ViewerRow | undefined> = keys.map(() => undefined);
  for (const row of rows) {
    const { ord, viewerId, viewerPublicId, voted, ...request } = row;
    const answer = (answers[Number(ord) - 1] ??= { id: viewerId, publicId: viewerPublicId, voted, own: [] });
    if (request.id !== null) answer.own.push(request as OwnPendingRow);
  }
  return answers;
}
