import type { Membership, Role } from "@tidings/protocol";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";

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

/** A member of a workspace, or 404 `member_not_found`. */
export async function findMember(db: Kysely<Database>, workspaceId: string, memberId: string): Promise<Membership> {
  const row = await membershipQuery(db)
    .where("memberships.workspaceId", "=", workspaceId)
    .where("memberships.id", "=", memberId)
    .executeTakeFirst();
  if (row === undefined) throw new ApiError("member_not_found");
  return toMembership(row);
}

/** The members of a workspace, oldest first. */
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

/**
 * The owners of a workspace, the console users told when something of theirs breaks (a failing
 * webhook endpoint, a tracker connection), in a stable order.
 */
export function workspaceOwners(db: Kysely<Database>, workspaceId: string): Promise<Array<{ id: string; email: string }>> {
  return db
    .selectFrom("memberships as m")
    .innerJoin("consoleUsers as u", "u.id", "m.userId")
    .select(["u.id", "u.email"])
    .where("m.workspaceId", "=", workspaceId)
    .where("m.role", "=", "owner")
    .orderBy("u.id")
    .execute();
}
