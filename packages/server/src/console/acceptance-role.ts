import type { Role } from "@tidings/protocol";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { memberByEmail, membershipOf } from "../workspaces/members.js";
import { can, higherRole, mayChangeRole } from "./capabilities.js";
import type { InvitationRow } from "./invitations.js";

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
