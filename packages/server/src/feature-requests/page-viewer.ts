import { sql, type Kysely } from "kysely";
import type { DialectName } from "../db/database.js";
import { preparedQuery } from "../db/prepared-query.js";
import type { Database } from "../db/schema.js";
import { findEndUser, tokenHash } from "../users/identity.js";
import type { ListPage } from "./list-query.js";
import { compareKeys } from "./list-order.js";
import type { OwnPendingRow } from "./own-pending.js";
import { pageViewers } from "./page-viewers.js";

/** A signed-in viewer of a shared page: who they are and what the page shows differently for them. */
export interface PageViewer {
  id: string;
  publicId: string;
  /**
   * They have pending requests of their own, which their pages list too: merged into the shared
   * page (see own-page.ts). Not looked for when the lookup asked `{ own: false }`.
   */
  ownPending: boolean;
  /** The window of those (see own-pending.ts), when read with the viewer (PostgreSQL); else own-page.ts reads it. */
  ownWindow?: OwnPendingRow[];
  /** The page's requests they voted on. */
  voted: Set<string>;
}

/**
 * The viewer behind `token` on a shared page, or undefined for a token never seen (nothing to
 * personalise). On PostgreSQL one statement answers it all, their window of pending requests
 * included, for every reader whose lookup arrives with this one (see page-viewers.ts), where
 * four (the end user, their pending requests, their votes, the window) cost a round trip each;
 * SQLite, in process, runs them in turn, and reads the window only for a page it merges into.
 * `own: false` skips the pending requests, for a page that shows none (similar requests).
 */
export async function pageViewer(
  db: Kysely<Database>,
  dialect: DialectName,
  appId: string,
  token: string,
  page: ListPage,
  options: { own: boolean } = { own: true },
): Promise<PageViewer | undefined> {
  const ids = page.requests.map((r) => r.id).sort();
  const range = { from: ids[0] ?? "", to: ids.at(-1) ?? "" };
  if (dialect === "postgres") {
    const row = await pageViewers(db).load({ appId, hash: tokenHash(token), ...range, own: options.own });
    if (row === undefined) return undefined;
    // Newest first, as own-pending.ts reads it (rows of a join come in no promised order).
    const own = row.own.sort((a, b) => compareKeys("newest", a, b));
    return { id: row.id, publicId: row.publicId, ownPending: own.length > 0, voted: new Set(row.voted), ...(options.own ? { ownWindow: own } : {}) };
  }
  const viewer = await findEndUser(db, appId, token);
  if (viewer === undefined) return undefined;
  const pending = options.own && (await ownPending.first(db, { appId, viewerEndUserId: viewer.id })) !== undefined;
  const voted = ids.length === 0 ? [] : await votesInRange.rows(db, { endUserId: viewer.id, ...range });
  return { ...viewer, ownPending: pending, voted: new Set(voted.map((v) => v.featureRequestId)) };
}

// The state is a literal so that the partial index of the viewer's pending requests serves it.
const ownPending = preparedQuery<{ appId: string; viewerEndUserId: string }, { id: string }>((db, p) =>
  db
    .selectFrom("featureRequests")
    .select("id")
    .where("appId", "=", p.appId)
    .where("requesterEndUserId", "=", p.viewerEndUserId)
    .where("moderation", "=", sql.lit("pending"))
    .where("mergedIntoId", "is", null)
    .limit(1),
);

/**
 * The viewer's votes among requests whose ids fall in a range. Ids sort by creation time, so a
 * page's ids bound a range; a fixed statement (no list of ids) keeps it prepared.
 */
const votesInRange = preparedQuery<{ endUserId: string; from: string; to: string }, { featureRequestId: string }>((db, p) =>
  db
    .selectFrom("featureRequestVotes")
    .select("featureRequestId")
    .where("endUserId", "=", p.endUserId)
    .where("featureRequestId", ">=", p.from)
    .where("featureRequestId", "<=", p.to),
);

/** The viewer's version of an anonymous page: `hasVoted` and `isOwnRequest` filled in (their pending requests are merged in by own-page.ts). */
export function personalisePage(page: ListPage, viewer: PageViewer): ListPage {
  return {
    ...page,
    requests: page.requests.map((r) => ({ ...r, hasVoted: viewer.voted.has(r.id), isOwnRequest: r.requesterClerkId === viewer.publicId })),
  };
}
