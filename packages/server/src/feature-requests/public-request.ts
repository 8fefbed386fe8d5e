import type { Kysely } from "kysely";
import { preparedQuery } from "../db/prepared-query.js";
import type { Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";

/**
 * The id and app of a request the public may see: approved and not merged. Anything else is 404
 * `feature_request_not_found`, so the answer never reveals that an unapproved request exists.
 */
export async function findPublicRequest(db: Kysely<Database>, id: string): Promise<{ id: string; appId: string; boardId: string }> {
  const row = await publicRequest.first(db, { id });
  if (row === undefined) throw new ApiError("feature_request_not_found");
  return row;
}

const publicRequest = preparedQuery<{ id: string }, { id: string; appId: string; boardId: string }>((db, p) =>
  db.selectFrom("featureRequests").select(["id", "appId", "boardId"]).where("id", "=", p.id).where("moderation", "=", "approved").where("mergedIntoId", "is", null),
);
