import { sql, type ExpressionBuilder } from "kysely";
import type { Database } from "../db/schema.js";
import type { ListQuery } from "./list-query.js";

/** The listing's requests, read under the alias `fr`. */
type Listed = ExpressionBuilder<Database & { fr: Database["featureRequests"] }, "fr">;

/**
 * The app's public requests: approved and not merged. The states are literals, not parameters, so
 * the planners can use the partial indexes of migration 0011, which hold these rows alone.
 */
export function approvedBy(query: Pick<ListQuery, "appId" | "versionId">) {
  return (eb: Listed) =>
    eb.and([
      eb("fr.appId", "=", query.appId),
      eb("fr.moderation", "=", sql.lit("approved")),
      eb("fr.mergedIntoId", "is", null),
      ...(query.versionId === undefined ? [] : [eb("fr.versionId", "=", query.versionId)]),
    ]);
}

/** The viewer's own requests still waiting for review (not merged), likewise literal for the partial indexes. */
export function ownPendingBy(query: ListQuery, viewer: string) {
  return (eb: Listed) =>
    eb.and([
      eb("fr.appId", "=", query.appId),
      eb("fr.requesterEndUserId", "=", viewer),
      eb("fr.moderation", "=", sql.lit("pending")),
      eb("fr.mergedIntoId", "is", null),
      ...(query.versionId === undefined ? [] : [eb("fr.versionId", "=", query.versionId)]),
    ]);
}

/** The listing's filter: the app's approved requests plus the viewer's own pending ones, merged duplicates excluded. */
export function listedBy(query: ListQuery) {
  const viewer = query.viewerEndUserId;
  return (eb: Listed) => (viewer === null ? approvedBy(query)(eb) : eb.or([approvedBy(query)(eb), ownPendingBy(query, viewer)(eb)]));
}
