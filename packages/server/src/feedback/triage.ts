import type { TriageStatus } from "@tidings/protocol";
import type { Kysely } from "kysely";
import type { Database, SubmissionsTable } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { membershipOf } from "../workspaces/members.js";

/** A triage change to one or many submissions; absent fields stay as they are. */
export interface TriagePatch {
  triageStatus?: TriageStatus;
  priority?: string | null;
  assignedTo?: string | null;
  internalNote?: string | null;
}

/** 400 unless `userId` is a member of the workspace (null always passes: it unassigns). */
export async function requireAssignee(db: Kysely<Database>, workspaceId: string, userId: string | null | undefined): Promise<void> {
  if (userId === null || userId === undefined) return;
  if ((await membershipOf(db, workspaceId, userId)) === undefined) {
    throw new ApiError("validation_failed", {
      message: "The assignee is not a member of this workspace",
      details: { formErrors: [], fieldErrors: { assignedTo: ["Not a member of this workspace"] } },
    });
  }
}

/** The columns a patch changes on `current`, with the triage timestamps it implies. */
function changes(current: SubmissionsTable, patch: TriagePatch, now: string): Partial<SubmissionsTable> {
  const out: Partial<SubmissionsTable> = { updatedAt: now };
  let status = patch.triageStatus;
  if (patch.assignedTo !== undefined) {
    out.assignedTo = patch.assignedTo;
    // Assigning someone starts the work (wire-contract §11.4).
    if (patch.assignedTo !== null && status === undefined && current.triageStatus === "open") status = "in_progress";
  }
  if (status !== undefined) {
    out.triageStatus = status;
    if (status !== "open" && current.firstTriagedAt === null) out.firstTriagedAt = now;
    out.resolvedAt = status === "resolved" ? (current.resolvedAt ?? now) : status === "archived" ? current.resolvedAt : null;
  }
  if (patch.priority !== undefined) out.priority = patch.priority;
  if (patch.internalNote !== undefined) out.internalNote = patch.internalNote === null || patch.internalNote.trim() === "" ? null : patch.internalNote;
  return out;
}

/**
 * Applies `patch` to the submissions `ids` of the workspace inside the caller's transaction;
 * answers the ids that exist there (others are skipped).
 */
export async function applyTriage(
  trx: Kysely<Database>,
  workspaceId: string,
  ids: readonly string[],
  patch: TriagePatch,
  now: string,
): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await trx.selectFrom("submissions").selectAll().where("workspaceId", "=", workspaceId).where("id", "in", ids).execute();
  for (const row of rows) {
    await trx.updateTable("submissions").set(changes(row, patch, now)).where("id", "=", row.id).execute();
  }
  return ids.filter((id) => rows.some((r) => r.id === id));
}
