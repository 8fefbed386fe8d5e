import { createHash } from "node:crypto";
import type { Invitation, Role } from "@tidings/protocol";
import type { Kysely, Selectable } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import type { ConsoleInvitationsTable, Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { newId, randomToken } from "../ids.js";
import { memberByEmail, membershipOf } from "../workspaces/members.js";
import { can, higherRole, mayChangeRole } from "./capabilities.js";

/** An invitation link works for a week. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

type InvitationRow = Selectable<ConsoleInvitationsTable>;

const hashInvitationToken = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

export function toInvitation(row: InvitationRow): Invitation {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    email: row.email,
    role: row.role as Role,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    acceptedAt: row.acceptedAt,
  };
}

/**
 * Creates an invitation to `workspaceId`; answers the row and the token, which only the link
 * carries (the database keeps its SHA-256).
 *
 * @example
 * ```ts
 * const { token } = await createInvitation(db, clock, wsId, { email: "sam@acme.example", role: "member" }, userId);
 * ```
 */
export async function createInvitation(
  db: Kysely<Database>,
  clock: Clock,
  workspaceId: string,
  input: { email: string; role: Role },
  invitedBy: string | null,
): Promise<{ row: InvitationRow; token: string }> {
  const token = `inv_${randomToken(40)}`;
  const now = clock.now();
  const row: InvitationRow = {
    id: newId("inv", now),
    workspaceId,
    email: input.email.trim().toLowerCase(),
    role: input.role,
    tokenHash: hashInvitationToken(token),
    invitedBy,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + INVITATION_TTL_MS).toISOString(),
    acceptedAt: null,
    revokedAt: null,
  };
  await db.insertInto("consoleInvitations").values(row).execute();
  return { row, token };
}

/** The live invitation of a token, or 400 `invalid_invitation` (unknown, revoked, accepted, expired). */
export async function liveInvitation(db: Kysely<Database>, clock: Clock, token: string): Promise<InvitationRow> {
  const row = await db.selectFrom("consoleInvitations").selectAll().where("tokenHash", "=", hashInvitationToken(token)).executeTakeFirst();
  if (row === undefined || row.revokedAt !== null || row.acceptedAt !== null || Date.parse(row.expiresAt) <= clock.now().getTime()) {
    throw new ApiError("invalid_invitation");
  }
  return row;
}

/** Invitations of a workspace nobody accepted yet and that have not expired. */
export async function pendingInvitations(db: Kysely<Database>, clock: Clock, workspaceId: string): Promise<Invitation[]> {
  const rows = await db
    .selectFrom("consoleInvitations")
    .selectAll()
    .where("workspaceId", "=", workspaceId)
    .where("acceptedAt", "is", null)
    .where("revokedAt", "is", null)
    .where("expiresAt", ">", isoNow(clock))
    .orderBy("createdAt", "desc")
    .execute();
  return rows.map(toInvitation);
}

/**
 * What accepting `invitation` does to the account of its email: the role it ends with (an
 * invitation grants, it never lowers a role already held), checked against the authority the
 * inviter holds now, not when they invited. Throws 400 `invalid_invitation` when the inviter can
 * no longer grant that role, or when the invitation would set the password of an existing account
 * that belongs to a workspace the inviter cannot manage: whoever holds the link would then sign
 * in as that person there. Invitations of the bootstrap admin (no inviter) carry its authority.
 *
 * @example
 * ```ts
 * const role = await roleOnAcceptance(trx, invitation, existingAccount);
 * await addMember(trx, clock, invitation.workspaceId, { email: invitation.email, role });
 * ```
 */
export async function roleOnAcceptance(
  db: Kysely<Database>,
  invitation: InvitationRow,
  account: { id: string; passwordHash: string | null } | undefined,
): Promise<Role> {
  const current = await memberByEmail(db, invitation.workspaceId, invitation.email);
  const role = higherRole(current?.role, invitation.role as Role);
  if (invitation.invitedBy === null) return role;
  const inviterId = invitation.invitedBy;
  const mayManage = async (workspaceId: string, change: { from?: Role | undefined; to?: Role | undefined }) => {
    const inviter = await membershipOf(db, workspaceId, inviterId);
    return inviter !== undefined && can(inviter.role, "members.manage") && mayChangeRole(inviter.role, change);
  };
  if (role !== current?.role && !(await mayManage(invitation.workspaceId, { from: current?.role, to: role }))) {
    throw new ApiError("invalid_invitation", {
      message: "The person who invited you can no longer grant this role. Ask a workspace owner for a new invitation.",
    });
  }
  if (account !== undefined && account.passwordHash === null) {
    const memberships = await db.selectFrom("memberships").select(["workspaceId", "role"]).where("userId", "=", account.id).execute();
    for (const m of memberships) {
      if (!(await mayManage(m.workspaceId, { from: m.role as Role }))) {
        throw new ApiError("invalid_invitation", {
          message: "This email belongs to an account in a workspace the person who invited you does not manage. Ask an owner there for an invitation.",
        });
      }
    }
  }
  return role;
}
