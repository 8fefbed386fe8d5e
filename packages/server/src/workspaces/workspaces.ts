import type { Membership, Role, Workspace } from "@tidings/protocol";
import type { Kysely, Selectable } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import type { Database, WorkspacesTable } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { newId } from "../ids.js";

export type WorkspaceRow = Selectable<WorkspacesTable>;

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

async function addMembership(trx: Kysely<Database>, clock: Clock, workspaceId: string, userId: string, role: Role): Promise<Membership> {
  const now = isoNow(clock);
  const id = newId("mem", clock.now());
  await trx.insertInto("memberships").values({ id, workspaceId, userId, role, createdAt: now, updatedAt: now }).execute();
  return findMember(trx, workspaceId, id);
}

function membershipQuery(db: Kysely<Database>) {
  return db
    .selectFrom("memberships")
    .innerJoin("consoleUsers", "consoleUsers.id", "memberships.userId")
    .select([
      "memberships.id",
      "memberships.workspaceId",
      "memberships.userId",
      "memberships.role",
      "memberships.createdAt",
      "memberships.updatedAt",
      "consoleUsers.email",
      "consoleUsers.displayName",
    ]);
}

type MembershipRow = Awaited<ReturnType<ReturnType<typeof membershipQuery>["executeTakeFirstOrThrow"]>>;
const toMembership = (row: MembershipRow): Membership => ({ ...row, role: row.role as Role });

export async function findMember(db: Kysely<Database>, workspaceId: string, memberId: string): Promise<Membership> {
  const row = await membershipQuery(db)
    .where("memberships.workspaceId", "=", workspaceId)
    .where("memberships.id", "=", memberId)
    .executeTakeFirst();
  if (row === undefined) throw new ApiError("member_not_found");
  return toMembership(row);
}

export async function listMembers(db: Kysely<Database>, workspaceId: string): Promise<Membership[]> {
  const rows = await membershipQuery(db).where("memberships.workspaceId", "=", workspaceId).orderBy("memberships.createdAt").execute();
  return rows.map(toMembership);
}

/** The caller's membership of a workspace, or undefined. */
export async function membershipOf(db: Kysely<Database>, workspaceId: string, userId: string): Promise<Membership | undefined> {
  const row = await membershipQuery(db)
    .where("memberships.workspaceId", "=", workspaceId)
    .where("memberships.userId", "=", userId)
    .executeTakeFirst();
  return row === undefined ? undefined : toMembership(row);
}

/** The membership of the console user with `email` (any case) in a workspace, or undefined. */
export async function memberByEmail(db: Kysely<Database>, workspaceId: string, email: string): Promise<Membership | undefined> {
  const row = await membershipQuery(db)
    .where("memberships.workspaceId", "=", workspaceId)
    .where("consoleUsers.email", "=", email.trim().toLowerCase())
    .executeTakeFirst();
  return row === undefined ? undefined : toMembership(row);
}

/** A console account as {@link ensureConsoleUser} answers it. */
export interface ConsoleAccount {
  id: string;
  displayName: string | null;
  passwordHash: string | null;
  /** True when this call created it (without a password); false when it was there already. */
  created: boolean;
}

/**
 * The console user of `email` (any case), created without a password when there is none. Two
 * requests creating the same email at once both end with the one account, as when sent one
 * after the other: on a clash PostgreSQL waits for the concurrent writer's commit, which the
 * re-read then sees.
 */
export async function ensureConsoleUser(trx: Kysely<Database>, clock: Clock, email: string, displayName?: string): Promise<ConsoleAccount> {
  const address = email.trim().toLowerCase();
  const read = () => trx.selectFrom("consoleUsers").select(["id", "displayName", "passwordHash"]).where("email", "=", address).executeTakeFirst();
  const found = await read();
  if (found !== undefined) return { ...found, created: false };
  const now = isoNow(clock);
  const inserted = await trx
    .insertInto("consoleUsers")
    .values({ id: newId("usr", clock.now()), email: address, displayName: displayName ?? null, passwordHash: null, createdAt: now, updatedAt: now })
    .onConflict((oc) => oc.column("email").doNothing())
    .returning(["id", "displayName", "passwordHash"])
    .executeTakeFirst();
  if (inserted !== undefined) return { ...inserted, created: true };
  const concurrent = await read();
  if (concurrent === undefined) throw new ApiError("write_conflict");
  return { ...concurrent, created: false };
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

export async function removeMember(trx: Kysely<Database>, workspaceId: string, memberId: string): Promise<void> {
  const current = await findMember(trx, workspaceId, memberId);
  if (current.role === "owner") await assertAnotherOwner(trx, workspaceId, memberId);
  await trx.deleteFrom("memberships").where("id", "=", memberId).execute();
}
