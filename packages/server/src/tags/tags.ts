import { MAX_TAGS_PER_APP, MAX_TAGS_PER_REQUEST, type CreateTagBody, type PublicTag, type Tag, type UpdateTagBody } from "@tidings/protocol";
import type { Kysely, Selectable } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import type { Database, TagsTable } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { newId } from "../ids.js";
import { insertWithSlug, slugify } from "../slug.js";

export type TagRow = Selectable<TagsTable>;

export function toPublicTag(row: Pick<TagRow, "name" | "slug" | "color">): PublicTag {
  return { name: row.name, slug: row.slug, color: row.color };
}

export function toTag(row: TagRow, requestCount: number): Tag {
  return { id: row.id, appId: row.appId, ...toPublicTag(row), visibility: row.visibility, requestCount, createdAt: row.createdAt, updatedAt: row.updatedAt };
}

/** Every tag of an app, by name. */
export function listTags(db: Kysely<Database>, appId: string): Promise<TagRow[]> {
  return db.selectFrom("tags").selectAll().where("appId", "=", appId).orderBy("name").orderBy("id").execute();
}

/** How many requests carry each tag of an app, by tag id. */
export async function tagCounts(db: Kysely<Database>, appId: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom("featureRequestTags")
    .innerJoin("tags", "tags.id", "featureRequestTags.tagId")
    .select(["featureRequestTags.tagId", (eb) => eb.fn.countAll<string | number>().as("n")])
    .where("tags.appId", "=", appId)
    .groupBy("featureRequestTags.tagId")
    .execute();
  return new Map(rows.map((r) => [r.tagId, Number(r.n)]));
}

export async function findTagInWorkspace(db: Kysely<Database>, workspaceId: string, tagId: string): Promise<TagRow> {
  const row = await db
    .selectFrom("tags")
    .innerJoin("apps", "apps.id", "tags.appId")
    .selectAll("tags")
    .where("tags.id", "=", tagId)
    .where("apps.workspaceId", "=", workspaceId)
    .executeTakeFirst();
  if (row === undefined) throw new ApiError("tag_not_found");
  return row;
}

export async function createTag(trx: Kysely<Database>, clock: Clock, appId: string, input: CreateTagBody): Promise<TagRow> {
  const now = isoNow(clock);
  const id = newId("tag", clock.now());
  const rowWith = (slug: string): TagRow => ({
    id,
    appId,
    name: input.name,
    slug,
    color: input.color ?? null,
    visibility: input.visibility ?? "public",
    createdAt: now,
    updatedAt: now,
  });
  const slug = await insertWithSlug(
    input.slug,
    slugify(input.name, "tag"),
    async () => {
      const existing = await listTags(trx, appId);
      if (existing.length >= MAX_TAGS_PER_APP) throw new ApiError("too_many_tags", { details: { limit: MAX_TAGS_PER_APP } });
      return new Set(existing.map((t) => t.slug));
    },
    async (candidate) =>
      (await trx
        .insertInto("tags")
        .values(rowWith(candidate))
        .onConflict((oc) => oc.columns(["appId", "slug"]).doNothing())
        .returning("id")
        .executeTakeFirst()) !== undefined,
  );
  return rowWith(slug);
}

export async function updateTag(trx: Kysely<Database>, clock: Clock, workspaceId: string, tagId: string, patch: UpdateTagBody): Promise<TagRow> {
  const current = await findTagInWorkspace(trx, workspaceId, tagId);
  const changes: Partial<TagRow> = { updatedAt: isoNow(clock) };
  if (patch.name !== undefined) changes.name = patch.name;
  if (patch.color !== undefined) changes.color = patch.color;
  if (patch.visibility !== undefined) changes.visibility = patch.visibility;
  if (patch.slug !== undefined && patch.slug !== current.slug) {
    const taken = await trx.selectFrom("tags").select("id").where("appId", "=", current.appId).where("slug", "=", patch.slug).executeTakeFirst();
    if (taken !== undefined) throw new ApiError("slug_taken");
    changes.slug = patch.slug;
  }
  await trx.updateTable("tags").set(changes).where("id", "=", tagId).execute();
  return findTagInWorkspace(trx, workspaceId, tagId);
}

/** Deletes a tag; it comes off every request (the foreign key cascades). */
export async function deleteTag(trx: Kysely<Database>, workspaceId: string, tagId: string): Promise<TagRow> {
  const tag = await findTagInWorkspace(trx, workspaceId, tagId);
  await trx.deleteFrom("featureRequestTags").where("tagId", "=", tagId).execute();
  await trx.deleteFrom("tags").where("id", "=", tagId).execute();
  return tag;
}

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
