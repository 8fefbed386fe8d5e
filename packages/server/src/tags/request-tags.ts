import { MAX_TAGS_PER_REQUEST } from "@tidings/protocol";
import type { Kysely } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import type { Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import type { TagRow } from "./tags.js";

/**
 * Adds and removes tags on requests of one app. Every tag must be the app's (404 otherwise);
 * request ids of other apps are skipped. A request may carry at most {@link MAX_TAGS_PER_REQUEST}
 * tags: an addition that would pass it is refused whole (400 `too_many_tags`), nothing written.
 */
export async function bulkTag(
  trx: Kysely<Database>,
  clock: Clock,
  appId: string,
  input: { featureRequestIds: readonly string[]; add?: readonly string[]; remove?: readonly string[] },
): Promise<{ added: number; removed: number; featureRequestIds: string[] }> {
  const add = [...new Set(input.add ?? [])];
  const remove = [...new Set(input.remove ?? [])].filter((id) => !add.includes(id));
  const named = [...new Set([...add, ...remove])];
  if (named.length > 0) {
    const known = await trx.selectFrom("tags").select("id").where("appId", "=", appId).where("id", "in", named).execute();
    if (known.length !== named.length) throw new ApiError("tag_not_found");
  }
  const requests = await trx
    .selectFrom("featureRequests")
    .select("id")
    .where("appId", "=", appId)
    .where("id", "in", [...new Set(input.featureRequestIds)])
    .execute();
  const ids = requests.map((r) => r.id);
  if (ids.length === 0) return { added: 0, removed: 0, featureRequestIds: [] };
  let removed = 0;
  if (remove.length > 0) {
    const gone = await trx.deleteFrom("featureRequestTags").where("featureRequestId", "in", ids).where("tagId", "in", remove).returning("tagId").execute();
    removed = gone.length;
  }
  let added = 0;
  if (add.length > 0) {
    const carried = await trx.selectFrom("featureRequestTags").select(["featureRequestId", "tagId"]).where("featureRequestId", "in", ids).execute();
    const byRequest = new Map<string, Set<string>>(ids.map((id) => [id, new Set()]));
    for (const c of carried) byRequest.get(c.featureRequestId)!.add(c.tagId);
    const now = isoNow(clock);
    const rows: Array<{ featureRequestId: string; tagId: string; createdAt: string }> = [];
    for (const [featureRequestId, tags] of byRequest) {
      const fresh = add.filter((tagId) => !tags.has(tagId));
      if (tags.size + fresh.length > MAX_TAGS_PER_REQUEST) {
        throw new ApiError("too_many_tags", { details: { limit: MAX_TAGS_PER_REQUEST, featureRequestId } });
      }
      for (const tagId of fresh) rows.push({ featureRequestId, tagId, createdAt: now });
    }
    for (let i = 0; i < rows.length; i += 300) {
      const chunk = rows.slice(i, i + 300);
      await trx.insertInto("featureRequestTags").values(chunk).onConflict((oc) => oc.columns(["featureRequestId", "tagId"]).doNothing()).execute();
    }
    added = rows.length;
  }
  return { added, removed, featureRequestIds: ids };
}

/** The tags each request carries, by request id; `publicOnly` leaves team-only tags out. */
export async function tagsOf(db: Kysely<Database>, featureRequestIds: readonly string[], publicOnly: boolean): Promise<Map<string, TagRow[]>> {
  const out = new Map<string, TagRow[]>();
  if (featureRequestIds.length === 0) return out;
  let query = db
    .selectFrom("featureRequestTags")
    .innerJoin("tags", "tags.id", "featureRequestTags.tagId")
    .select("featureRequestTags.featureRequestId")
    .selectAll("tags")
    .where("featureRequestTags.featureRequestId", "in", [...featureRequestIds]);
  if (publicOnly) query = query.where("tags.visibility", "=", "public");
  for (const row of await query.orderBy("tags.name").orderBy("tags.id").execute()) {
    const { featureRequestId, ...tag } = row;
    const list = out.get(featureRequestId) ?? [];
    list.push(tag);
    out.set(featureRequestId, list);
  }
  return out;
}
