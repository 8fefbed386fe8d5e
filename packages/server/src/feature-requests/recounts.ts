import type { Kysely } from "kysely";
import type { Database } from "../db/schema.js";

/** Sets `vote_count` to the stored votes plus imported ones; hold the request's lock ({@link lockRequests}). */
export async function recountVotes(trx: Kysely<Database>, featureRequestId: string): Promise<number> {
  const { count } = await trx
    .selectFrom("featureRequestVotes")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("featureRequestId", "=", featureRequestId)
    .executeTakeFirstOrThrow();
  const row = await trx.selectFrom("featureRequests").select("importedVotes").where("id", "=", featureRequestId).executeTakeFirstOrThrow();
  const voteCount = Number(count) + row.importedVotes;
  await trx.updateTable("featureRequests").set({ voteCount }).where("id", "=", featureRequestId).execute();
  return voteCount;
}

/** Sets `comment_count` to the visible comments; hold the request's lock ({@link lockRequests}). */
export async function recountComments(trx: Kysely<Database>, featureRequestId: string): Promise<number> {
  const { count } = await trx
    .selectFrom("featureRequestComments")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("featureRequestId", "=", featureRequestId)
    .where("isHidden", "=", 0)
    .executeTakeFirstOrThrow();
  await trx.updateTable("featureRequests").set({ commentCount: Number(count) }).where("id", "=", featureRequestId).execute();
  return Number(count);
}
