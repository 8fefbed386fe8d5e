import type { Membership, Role } from "@tidings/protocol";
import type { Kysely } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import type { Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { newId } from "../ids.js";
import { ensureConsoleUser } from "./console-accounts.js";
import { findMember, membershipOf } from "./members.js";

/** Adds `userId` to a workspace with `role` (the creator of a new workspace, as its owner). */
export async function addMembership(trx: Kysely<Database>, clock: Clock, workspaceId: string, userId: string, role: Role): Promise<Membership> {
  const now = isoNow(clock);
  const id = newId("mem", clock.now());
  await trx.insertInto("memberships").values({ id, workspaceId, userId, role, createdAt: now, updatedAt: now }).execute();
  return findMember(trx, workspaceId, id);
}

/**
 * Adds (or re-roles) a member by email, creating the console user when new. The same addition
 * sent twice at once ends as when sent one after the other: one user, one membership, with the
 * role of the later one.
 */
export async function addMember(
  trx: Kysely<Database>,
  clock: Clock,
  workspaceId: string,
  input: { email: string; role: Role; displayName?: string },
): Promise<Membership> {
  const now = isoNow(clock);
  const user = await ensureConsoleUser(trx, clock, input.email, input.displayName);
  const existing = await membershipOf(trx, workspaceId, user.id);
  if (existing !== undefined) return updateMemberRole(trx, clock, workspaceId, existing.id, input.role);
  const id = newId("mem", clock.now());
  const added = await trx
    .insertInto("memberships")
    .values({ id, workspaceId, userId: user.id, role: input.role, createdAt: now, updatedAt: now })
    .onConflict((oc) => oc.columns(["workspaceId", "userId"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  if (added !== undefined) return findMember(trx, workspaceId, id);
  const concurrent = await membershipOf(trx, workspaceId, user.id);
  if (concurrent === undefined) throw new ApiError("write_conflict");
  return updateMemberRole(trx, clock, workspaceId, concurrent.id, input.role);
}

/**
 * Refuses to take the owner role from `memberId` when no other owner would remain. Two owners
 * who step down at once must not both pass: the workspace row is locked first (a no-op update,
 * which takes PostgreSQL's row lock and needs no dialect switch; SQLite runs one writer at a
 * time anyway), so the second reads the first's change after it commits.
 */
async function assertAnotherOwner(trx: Kysely<Database>, workspaceId: string, memberId: string): Promise<void> {
  await trx.updateTable("workspaces").set((eb) => ({ id: eb.ref("id") })).where("id", "=", workspaceId).execute();
  const owners = await trx
    .selectFrom("memberships")
    .select("id")
    .where("workspaceId", "=", workspaceId)
    .where("role", "=", "owner")
    .where("id", "!=", memberId)
    .execute();
  if (owners.length === 0) throw new ApiError("last_owner");
}

/** Changes a member's role; 400 `last_owner` when it would leave the workspace without an owner. */
export async function updateMemberRole(
  trx: Kysely<Database>,
  clock: Clock,
  workspaceId: string,
  memberId: string,
  role: Role,
): Promise<Membership> {
  const current = await findMember(trx, workspaceId, memberId);
  if (current.role === "owner" && role !== "owner") await assertAnotherOwner(trx, workspaceId, memberId);
  await trx.updateTable("memberships").set({ role, updatedAt: isoNow(clock) }).where("id", "=", memberId).execute();
  return { ...current, role };
}

/** Removes a member; 400 `last_owner` for the only owner. */
export async function removeMember(trx: Kysely<Database>, workspaceId: string, memberId: string): Promise<void> {
  const current = await findMember(trx, workspaceId, memberId);
  if (current.role === "owner") await assertAnotherOwner(trx, workspaceId, memberId);
  await trx.deleteFrom("memberships").where("id", "=", memberId).execute();
}
