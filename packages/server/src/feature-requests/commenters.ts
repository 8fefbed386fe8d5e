import type { FeatureRequestItem } from "@tidings/protocol";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema.js";

type Commenter = FeatureRequestItem["recentCommenters"][number];

/**
 * The latest distinct commenters (up to 4, to know whether there are more than 3) per request,
 * hidden comments excluded: the same answer as the public listing's.
 */
export async function recentCommenters(db: Kysely<Database>, ids: string[]): Promise<Map<string, Commenter[]>> {
  const out = new Map<string, Commenter[]>();
  if (ids.length === 0) return out;
  const rows = await db
    .selectFrom("featureRequestComments as cm")
    .leftJoin("endUsers as eu", "eu.id", "cm.endUserId")
    .select(["cm.featureRequestId", "cm.authorName", "cm.isTeam", "eu.publicId"])
    .where("cm.featureRequestId", "in", ids)
    .where("cm.isHidden", "=", 0)
    .orderBy("cm.createdAt", "desc")
    .orderBy("cm.id", "desc")
    .execute();
  const seen = new Map<string, Set<string>>();
  for (const row of rows) {
    const list = out.get(row.featureRequestId) ?? [];
    const who = seen.get(row.featureRequestId) ?? new Set<string>();
    const key = row.publicId ?? (row.isTeam === 1 ? "team" : `name:${row.authorName ?? ""}`);
    if (list.length < 4 && !who.has(key)) {
      who.add(key);
      list.push({ authorName: row.authorName, clerkUserId: row.publicId, avatarUrl: null });
    }
    seen.set(row.featureRequestId, who);
    out.set(row.featureRequestId, list);
  }
  return out;
}

