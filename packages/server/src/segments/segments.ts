import { MAX_SEGMENTS_PER_APP, type CreateSegmentBody, type Segment, type SegmentRule, type UpdateSegmentBody } from "@tidings/protocol";
import type { Kysely, Selectable } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import type { Database, SegmentsTable } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { newId } from "../ids.js";
import { checkedRule } from "./rule.js";

export type SegmentRow = Selectable<SegmentsTable>;

export function ruleOf(row: Pick<SegmentRow, "rule">): SegmentRule {
  return JSON.parse(row.rule) as SegmentRule;
}

/** What a list filtered by a segment needs of it: its app and its rule. */
export function segmentFilter(row: SegmentRow): { appId: string; rule: SegmentRule } {
  return { appId: row.appId, rule: ruleOf(row) };
}

export function toSegment(row: SegmentRow): Segment {
  return { id: row.id, appId: row.appId, name: row.name, rule: ruleOf(row), createdAt: row.createdAt, updatedAt: row.updatedAt };
}

/** Every segment of an app, by name. */
export function listSegments(db: Kysely<Database>, appId: string): Promise<SegmentRow[]> {
  return db.selectFrom("segments").selectAll().where("appId", "=", appId).orderBy("name").orderBy("id").execute();
}

/** A segment of the workspace; `404 segment_not_found` otherwise. */
export async function findSegmentInWorkspace(db: Kysely<Database>, workspaceId: string, segmentId: string): Promise<SegmentRow> {
  const row = await db
    .selectFrom("segments")
    .innerJoin("apps", "apps.id", "segments.appId")
    .selectAll("segments")
    .where("segments.id", "=", segmentId)
    .where("apps.workspaceId", "=", workspaceId)
    .executeTakeFirst();
  if (row === undefined) throw new ApiError("segment_not_found");
  return row;
}

/** A segment of the app (a board's rule, a release's audience, a list filter); `404 segment_not_found` otherwise. */
export async function findSegmentInApp(db: Kysely<Database>, appId: string, segmentId: string): Promise<SegmentRow> {
  const row = await db.selectFrom("segments").selectAll().where("id", "=", segmentId).where("appId", "=", appId).executeTakeFirst();
  if (row === undefined) throw new ApiError("segment_not_found", { details: { segmentId } });
  return row;
}

export async function createSegment(trx: Kysely<Database>, clock: Clock, appId: string, input: CreateSegmentBody): Promise<SegmentRow> {
  const rule = checkedRule(input.rule);
  const { n } = await trx.selectFrom("segments").select((eb) => eb.fn.countAll<number | string>().as("n")).where("appId", "=", appId).executeTakeFirstOrThrow();
  if (Number(n) >= MAX_SEGMENTS_PER_APP) throw new ApiError("too_many_segments", { details: { limit: MAX_SEGMENTS_PER_APP } });
  const now = isoNow(clock);
  const row: SegmentRow = { id: newId("seg", clock.now()), appId, name: input.name, rule: JSON.stringify(rule), createdAt: now, updatedAt: now };
  await trx.insertInto("segments").values(row).execute();
  return row;
}

export async function updateSegment(trx: Kysely<Database>, clock: Clock, workspaceId: string, segmentId: string, patch: UpdateSegmentBody): Promise<SegmentRow> {
  const current = await findSegmentInWorkspace(trx, workspaceId, segmentId);
  const changes: Partial<SegmentRow> = { updatedAt: isoNow(clock) };
  if (patch.name !== undefined) changes.name = patch.name;
  if (patch.rule !== undefined) changes.rule = JSON.stringify(checkedRule(patch.rule));
  await trx.updateTable("segments").set(changes).where("id", "=", segmentId).execute();
  return { ...current, ...changes };
}

/** What still names a segment: private boards' access rules and releases not yet mailed. */
export async function segmentUses(db: Kysely<Database>, appId: string, segmentId: string): Promise<{ boards: string[]; releases: string[] }> {
  const boards = await db.selectFrom("boards").select(["id", "accessRule"]).where("appId", "=", appId).where("accessRule", "is not", null).execute();
  const releases = await db
    .selectFrom("changelogEntries")
    .select("id")
    .where("appId", "=", appId)
    .where("emailSegmentId", "=", segmentId)
    .where("notifiedAt", "is", null)
    .execute();
  return {
    boards: boards.filter((b) => (JSON.parse(b.accessRule!) as { segmentId?: string }).segmentId === segmentId).map((b) => b.id),
    releases: releases.map((r) => r.id),
  };
}

/**
 * Deletes a segment, refused (`409 segment_in_use`, nothing deleted) while a board or an unmailed
 * release names it. Releases already mailed to it stop naming it, so no row points at nothing
 * (an archive of the app must import again).
 */
export async function deleteSegment(trx: Kysely<Database>, workspaceId: string, segmentId: string): Promise<SegmentRow> {
  const segment = await findSegmentInWorkspace(trx, workspaceId, segmentId);
  const uses = await segmentUses(trx, segment.appId, segmentId);
  if (uses.boards.length > 0 || uses.releases.length > 0) throw new ApiError("segment_in_use", { details: uses });
  await trx.updateTable("changelogEntries").set({ emailSegmentId: null }).where("appId", "=", segment.appId).where("emailSegmentId", "=", segmentId).execute();
  await trx.deleteFrom("segments").where("id", "=", segmentId).execute();
  return segment;
}
