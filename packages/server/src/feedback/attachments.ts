import type { FeedbackBody } from "@tidings/protocol";
import { MAX_ATTACHMENTS } from "@tidings/protocol";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import type { UploadRow } from "../uploads/uploads.js";

/**
 * The upload references of a submission: `uploadIds[]` and `attachments[]` descriptors (by
 * `uploadId`, `id` or storage `key`), without duplicates. More than 8 is 400 `validation_failed`.
 */
export function attachmentRefs(body: Pick<FeedbackBody, "uploadIds" | "attachments">): string[] {
  const refs = new Set<string>();
  for (const id of body.uploadIds ?? []) refs.add(id.trim());
  for (const [index, attachment] of (body.attachments ?? []).entries()) {
    const ref = attachment.uploadId ?? attachment.id ?? attachment.key;
    if (ref === undefined || ref.trim() === "") {
      throw new ApiError("invalid_attachment", {
        message: "An attachment names no upload (uploadId, id or key)",
        details: { formErrors: [], fieldErrors: { [`attachments.${index}`]: ["Names no upload"] } },
      });
    }
    refs.add(ref.trim());
  }
  if (refs.size > MAX_ATTACHMENTS) {
    throw new ApiError("validation_failed", {
      details: { formErrors: [`At most ${MAX_ATTACHMENTS} attachments per submission`], fieldErrors: {} },
    });
  }
  return [...refs];
}

/**
 * The uploads a submission may attach: each reference must be a finished upload of `appId`
 * (400 `invalid_attachment`), made by the same end user when the upload recorded one (400
 * `uploader_mismatch`), and not attached yet (400 `already_finalized`). Reads only; the attach
 * itself is guarded again in the write transaction.
 */
export async function resolveAttachments(
  db: Kysely<Database>,
  appId: string,
  refs: readonly string[],
  callerHash: string | null,
): Promise<UploadRow[]> {
  if (refs.length === 0) return [];
  const rows = await db
    .selectFrom("uploads")
    .selectAll()
    .where("appId", "=", appId)
    .where((eb) => eb.or([eb("id", "in", refs), eb("storageKey", "in", refs)]))
    .execute();
  return refs.map((ref) => {
    const row = rows.find((r) => r.id === ref || r.storageKey === ref);
    if (row === undefined || row.status !== "uploaded") {
      throw new ApiError("invalid_attachment", { message: `Attachment ${ref} is not a finished upload of this app` });
    }
    if (row.uploaderTokenHash !== null && row.uploaderTokenHash !== callerHash) throw new ApiError("uploader_mismatch");
    if (row.submissionId !== null) throw new ApiError("already_finalized");
    return row;
  });
}

/** Attaches `uploads` to `submissionId` inside the write transaction; 400 `already_finalized` when another submission took one first. */
export async function attachUploads(trx: Kysely<Database>, submissionId: string, uploadIds: readonly string[], now: string): Promise<void> {
  if (uploadIds.length === 0) return;
  const result = await trx
    .updateTable("uploads")
    .set({ submissionId, attachedAt: now })
    .where("id", "in", uploadIds)
    .where("submissionId", "is", null)
    .where("status", "=", "uploaded")
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== uploadIds.length) throw new ApiError("already_finalized");
}
