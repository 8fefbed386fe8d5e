import type { Kysely } from "kysely";
import type { Database } from "../db/schema.js";
import type { LinkAudience } from "./signed-links.js";
import type { UploadRow } from "./uploads.js";

/**
 * The upload a valid signed link may still serve, checked on every download: stored, its app
 * still there (and public, for a `public` link), and, once attached, its feedback still there.
 * Undefined for every other case alike, so a link reveals nothing about why it stopped.
 *
 * @example
 * ```ts
 * const row = await downloadableUpload(db, "upl_0123…", "public"); // undefined once the app is private
 * ```
 */
export async function downloadableUpload(db: Kysely<Database>, uploadId: string, audience: LinkAudience): Promise<UploadRow | undefined> {
  const row = await db
    .selectFrom("uploads as u")
    .innerJoin("apps as a", "a.id", "u.appId")
    .leftJoin("submissions as s", "s.id", "u.submissionId")
    .selectAll("u")
    .select(["a.allowPublic", "s.id as liveSubmissionId"])
    .where("u.id", "=", uploadId)
    .where("u.status", "=", "uploaded")
    .executeTakeFirst();
  if (row === undefined) return undefined;
  if (audience === "public" && row.allowPublic !== 1) return undefined;
  // Deleting a submission sets its uploads' submission_id to null; attachedAt remembers it had one.
  const wasAttached = row.submissionId !== null || row.attachedAt !== null;
  if (wasAttached && row.liveSubmissionId === null) return undefined;
  const { allowPublic: _allowPublic, liveSubmissionId: _live, ...upload } = row;
  return upload;
}
