import type { Membership, Workspace } from "@tidings/protocol";
import type { Kysely, Selectable } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import type { Database, WorkspacesTable } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { newId } from "../ids.js";
import { addMembership } from "./member-changes.js";

export type WorkspaceRow = Selectable<WorkspacesTable>;

/** The API view of a workspace. */
export function toWorkspace(row: WorkspaceRow): Workspace {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    plan: row.plan as Workspace["plan"],
    subscriptionStatus: row.subscriptionStatus as Workspace["subscriptionStatus"],
    monthlySubmissionQuota: row.monthlySubmissionQuota,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** Default monthly submission quota of a free workspace. */
export const FREE_MONTHLY_SUBMISSIONS = 1000;

/** Creates a workspace; `ownerUserId` (if any) becomes its owner. 409 `slug_taken` on a clash. */
export async function createWorkspace(
  trx: Kysely<Database>,
  clock: Clock,
  input: { name: string; slug: string },
  ownerUserId: string | null,
): Promise<{ workspace: WorkspaceRow; membership: Membership | null }> {
  const clash = await trx.selectFrom("workspaces").select("id").where("slug", "=", input.slug).executeTakeFirst();
  if (clash !== undefined) throw new ApiError("slug_taken");
  const now = isoNow(clock);
  const workspace: WorkspaceRow = {
    id: newId("ws", clock.now()),
    name: input.name,
    slug: input.slug,
    plan: "free",
    subscriptionStatus: "active",
    monthlySubmissionQuota: FREE_MONTHLY_SUBMISSIONS,
    createdAt: now,
    updatedAt: now,
  };
  // The check above spares the write; a concurrent request may still take the slug first.
  const inserted = await trx
    .insertInto("workspaces")
    .values(workspace)
    .onConflict((oc) => oc.column("slug").doNothing())
    .returning("id")
    .executeTakeFirst();
  if (inserted === undefined) throw new ApiError("slug_taken");
  const membership = ownerUserId === null ? null : await addMembership(trx, clock, workspace.id, ownerUserId, "owner");
  return { workspace, membership };
}
