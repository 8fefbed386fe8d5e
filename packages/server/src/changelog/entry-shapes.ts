import type { AdminChangelogEntry, ChangelogEntry } from "@tidings/protocol";
import type { Kysely } from "kysely";
import { onPublicBoard } from "../db/public-board.js";
import type { Database } from "../db/schema.js";
import { jobProgress } from "../jobs/queue-reports.js";
import type { EntryRow } from "./entries.js";
import { renderRelease } from "./markdown.js";

/** Linked requests of entries, in their stored order; `publicOnly` keeps approved, unmerged ones. */
export async function linkedRequests(
  db: Kysely<Database>,
  entryIds: readonly string[],
  publicOnly: boolean,
): Promise<Map<string, { id: string; title: string }[]>> {
  const byEntry = new Map<string, { id: string; title: string }[]>();
  if (entryIds.length === 0) return byEntry;
  let query = db
    .selectFrom("changelogEntryRequests as l")
    .innerJoin("featureRequests as fr", "fr.id", "l.featureRequestId")
    .select(["l.entryId", "fr.id", "fr.title"])
    .where("l.entryId", "in", entryIds);
  if (publicOnly) query = query.where("fr.moderation", "=", "approved").where("fr.mergedIntoId", "is", null).where(onPublicBoard());
  for (const row of await query.orderBy("l.entryId").orderBy("l.position").execute()) {
    let list = byEntry.get(row.entryId);
    if (list === undefined) byEntry.set(row.entryId, (list = []));
    list.push({ id: row.id, title: row.title });
  }
  return byEntry;
}

/** The public shape of a published entry. */
export function toPublicEntry(row: EntryRow, linked: { id: string; title: string }[]): ChangelogEntry {
  const { html, blocks } = renderRelease(row.body);
  return {
    id: row.id,
    title: row.title,
    body: row.body,
    html,
    blocks,
    versionLabel: row.versionLabel,
    publishedAt: row.publishedAt ?? row.updatedAt,
    linkedRequests: linked,
  };
}

/** Confirmed changelog subscribers of an app. */
export async function subscriberCount(db: Kysely<Database>, appId: string): Promise<number> {
  const row = await db
    .selectFrom("emailSubscriptions")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("appId", "=", appId)
    .where("kind", "=", "changelog")
    .where("status", "=", "confirmed")
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The console shape: the entry, its links, subscriber count and mail progress. */
export async function toAdminEntries(db: Kysely<Database>, rows: readonly EntryRow[]): Promise<AdminChangelogEntry[]> {
  const linked = await linkedRequests(
    db,
    rows.map((r) => r.id),
    false,
  );
  const counts = new Map<string, number>();
  const out: AdminChangelogEntry[] = [];
  for (const row of rows) {
    let count = counts.get(row.appId);
    if (count === undefined) counts.set(row.appId, (count = await subscriberCount(db, row.appId)));
    const links = linked.get(row.id) ?? [];
    out.push({
      id: row.id,
      appId: row.appId,
      title: row.title,
      body: row.body,
      html: renderRelease(row.body).html,
      versionLabel: row.versionLabel,
      versionId: row.versionId,
      status: row.status,
      scheduledAt: row.scheduledAt,
      publishedAt: row.publishedAt,
      notifiedAt: row.notifiedAt,
      emailSegmentId: row.emailSegmentId,
      linkedRequestIds: links.map((l) => l.id),
      linkedRequests: links,
      subscriberCount: count,
      delivery: await jobProgress(db, row.id),
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    });
  }
  return out;
}
