import { MAX_TAGS_PER_APP, type CreateTagBody, type PublicTag, type Tag, type UpdateTagBody } from "@tidings/protocol";
import type { Kysely, Selectable } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import { everyColumn } from "../db/every-column.js";
import type { Database, TagsTable } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { newId } from "../ids.js";
import { insertWithSlug, slugify } from "../slug.js";

export type TagRow = Selectable<TagsTable>;

/** Every column of `tags`, named (see {@link everyColumn}). */
export const TAG_COLUMNS = everyColumn<TagsTable>({ id: true, appId: true, name: true, slug: true, color: true, visibility: true, createdAt: true, updatedAt: true });

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
