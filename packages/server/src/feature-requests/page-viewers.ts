import DataLoader from "dataloader";
import { sql, type Kysely } from "kysely";
import { preparedQuery } from "../db/prepared-query.js";
import type { Database } from "../db/schema.js";

/** One viewer to look up: the end user behind a token hash, and a page's range of request ids. */
export interface ViewerKey {
  appId: string;
  hash: string;
  from: string;
  to: string;
}

/** What PostgreSQL answers about a viewer it knows. */
export interface ViewerRow {
  id: string;
  publicId: string;
  ownPending: boolean;
  voted: string[];
}

/** Most viewers one statement looks up. */
const MAX_BATCH = 64;

/**
 * Every viewer of the batch in one statement: the end user, whether they have pending requests
 * of their own, and their votes in the page's range, one row per viewer the database knows
 * (`ord` says which key it answers). A fixed text with array parameters, so it stays prepared.
 */
const viewersByKeys = preparedQuery<
  { appIds: string[]; hashes: string[]; froms: string[]; tos: string[] },
  ViewerRow & { ord: number }
>((db, p) => ({
  // Raw SQL, compiled by the database's own executor (a raw query needs one named).
  compile: () =>
    sql<ViewerRow & { ord: number }>`select k.ord, eu.id, eu.public_id,
    exists (select 1 from feature_requests fr where fr.app_id = k.app_id and fr.requester_end_user_id = eu.id
      and fr.moderation = 'pending' and fr.merged_into_id is null) as own_pending,
    coalesce((select array_agg(v.feature_request_id) from feature_request_votes v
      where v.end_user_id = eu.id and v.feature_request_id >= k.from_id and v.feature_request_id <= k.to_id), '{}') as voted
    from unnest(${p.appIds}::text[], ${p.hashes}::text[], ${p.froms}::text[], ${p.tos}::text[]) with ordinality as k(app_id, hash, from_id, to_id, ord)
    join end_users eu on eu.app_id = k.app_id and eu.token_hash = k.hash`.compile(db),
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
  });
  const answers: Array<ViewerRow | undefined> = keys.map(() => undefined);
  for (const { ord, ...row } of rows) answers[Number(ord) - 1] = row;
  return answers;
}
