import type { Kysely } from "kysely";
import type { Database } from "../db/schema.js";
import { listSubmissions } from "../feedback/inbox.js";

/** What changed in some apps of a workspace since a moment: counts, and the first `limit` of each. */
export interface ChangesSince {
  newRequests: { count: number; items: { id: string; appId: string; title: string; moderation: string; createdAt: string }[] };
  statusMoves: { count: number; items: { requestId: string; title: string | null; fromColumnId: string | null; toColumnId: string | null; at: string }[] };
  shipped: { count: number; items: { requestId: string; title: string | null; at: string }[] };
  topVoted: { requestId: string; title: string; newVotes: number; voteCount: number }[];
  newFeedback: { count: number; items: { id: string; appId: string; title: string; createdAt: string }[] };
  publishedReleases: { count: number; items: { id: string; appId: string; title: string; versionLabel: string | null; publishedAt: string }[] };
}

/**
 * Reads what changed since `since` (ISO, inclusive) in `appIds` (apps of `workspaceId`): requests
 * created, moves between roadmap columns and first arrivals in a done column (`shipped`), the
 * requests that gained most votes, feedback received and releases published. Each list is newest
 * first (most votes first for `topVoted`) and holds at most `limit` entries; counts are whole.
 *
 * @example
 * ```ts
 * const changes = await changesSince(db, wsId, [appId], "2026-03-01T00:00:00.000Z", 10);
 * changes.newRequests.count;
 * ```
 */
export async function changesSince(db: Kysely<Database>, workspaceId: string, appIds: readonly string[], since: string, limit: number): Promise<ChangesSince> {
  if (appIds.length === 0) {
    const none = { count: 0, items: [] };
    return { newRequests: none, statusMoves: none, shipped: none, topVoted: [], newFeedback: none, publishedReleases: none };
  }
  const created = db.selectFrom("featureRequests").where("appId", "in", appIds).where("createdAt", ">=", since);
  const events = (type: "moved" | "shipped") =>
    db.selectFrom("featureRequestEvents as e").where("e.appId", "in", appIds).where("e.type", "=", type).where("e.createdAt", ">=", since);
  const eventItems = (type: "moved" | "shipped") =>
    events(type)
      .leftJoin("featureRequests as fr", "fr.id", "e.featureRequestId")
      .select(["e.featureRequestId", "e.data", "e.createdAt", "fr.title"])
      .orderBy("e.createdAt", "desc")
      .orderBy("e.id", "desc")
      .limit(limit)
      .execute();
  const releases = db.selectFrom("changelogEntries").where("appId", "in", appIds).where("status", "=", "published").where("publishedAt", ">=", since);

  const [createdCount, createdRows, movedCount, movedRows, shippedCount, shippedRows, topVoted, releaseCount, releaseRows] = await Promise.all([
    created.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
    created.select(["id", "appId", "title", "moderation", "createdAt"]).orderBy("createdAt", "desc").orderBy("id", "desc").limit(limit).execute(),
    events("moved").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
    eventItems("moved"),
    events("shipped").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
    eventItems("shipped"),
    db
      .selectFrom("featureRequestVotes as v")
      .innerJoin("featureRequests as fr", "fr.id", "v.featureRequestId")
      .where("fr.appId", "in", appIds)
      .where("v.createdAt", ">=", since)
      .select(["fr.id", "fr.title", "fr.voteCount", (eb) => eb.fn.countAll<number>().as("newVotes")])
      .groupBy(["fr.id", "fr.title", "fr.voteCount"])
      .orderBy("newVotes", "desc")
      .orderBy("fr.id")
      .limit(limit)
      .execute(),
    releases.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
    releases.select(["id", "appId", "title", "versionLabel", "publishedAt"]).orderBy("publishedAt", "desc").orderBy("id", "desc").limit(limit).execute(),
  ]);
  // The inbox's own query, one app at a time when the caller named one.
  const feedback = await listSubmissions(db, workspaceId, { appId: appIds.length === 1 ? appIds[0] : undefined, from: since }, { limit, offset: 0 });

  const moveData = (data: string) => JSON.parse(data) as { fromColumnId?: string | null; toColumnId?: string | null };
  return {
    newRequests: { count: Number(createdCount.n), items: createdRows },
    statusMoves: {
      count: Number(movedCount.n),
      items: movedRows.map((e) => ({ requestId: e.featureRequestId, title: e.title, fromColumnId: moveData(e.data).fromColumnId ?? null, toColumnId: moveData(e.data).toColumnId ?? null, at: e.createdAt })),
    },
    shipped: { count: Number(shippedCount.n), items: shippedRows.map((e) => ({ requestId: e.featureRequestId, title: e.title, at: e.createdAt })) },
    topVoted: topVoted.map((r) => ({ requestId: r.id, title: r.title, newVotes: Number(r.newVotes), voteCount: r.voteCount })),
    newFeedback: { count: feedback.total, items: feedback.submissions.map((s) => ({ id: s.submissionId, appId: s.appId, title: s.title, createdAt: s.createdAt })) },
    publishedReleases: { count: Number(releaseCount.n), items: releaseRows.map((r) => ({ ...r, publishedAt: r.publishedAt ?? since })) },
  };
}
