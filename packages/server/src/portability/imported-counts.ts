import { sql, type Kysely } from "kysely";
import type { Database } from "../db/schema.js";

/**
 * Sets the counts of the requests an import touched, `batch` at a time. A request it created
 * (`fresh`) started with the source's vote count as imported votes; the voters stored for it are
 * taken out of that, so its count equals the source's (or the voters, when there are more). Older
 * requests are recounted. Answers the imported votes left on the fresh requests.
 */
export async function settleCounts(trx: Kysely<Database>, fresh: Set<string>, touched: string[], batch: number): Promise<number> {
  const votes = sql<number>`(select count(*) from feature_request_votes v where v.feature_request_id = feature_requests.id)`;
  const comments = sql<number>`(select count(*) from feature_request_comments c where c.feature_request_id = feature_requests.id and c.is_hidden = 0)`;
  for (let i = 0; i < touched.length; i += batch) {
    const chunk = touched.slice(i, i + batch);
    const created = chunk.filter((id) => fresh.has(id));
    const older = chunk.filter((id) => !fresh.has(id));
    if (created.length > 0) {
      await trx
        .updateTable("featureRequests")
        .set({
          importedVotes: sql<number>`case when imported_votes > ${votes} then imported_votes - ${votes} else 0 end`,
          voteCount: sql<number>`case when imported_votes > ${votes} then imported_votes else ${votes} end`,
          commentCount: comments,
        })
        .where("id", "in", created)
        .execute();
    }
    if (older.length > 0) {
      await trx
        .updateTable("featureRequests")
        .set({ voteCount: sql<number>`imported_votes + ${votes}`, commentCount: comments })
        .where("id", "in", older)
        .execute();
    }
  }
  return importedVotesOf(trx, [...fresh], batch);
}

async function importedVotesOf(trx: Kysely<Database>, ids: string[], batch: number): Promise<number> {
  let sum = 0;
  for (let i = 0; i < ids.length; i += batch) {
    const row = await trx
      .selectFrom("featureRequests")
      .select((eb) => eb.fn.sum<number>("importedVotes").as("total"))
      .where("id", "in", ids.slice(i, i + batch))
      .executeTakeFirstOrThrow();
    sum += Number(row.total ?? 0);
  }
  return sum;
}
