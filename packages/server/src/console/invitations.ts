import { createHash } from "node:crypto";
import type { Invitation, Role } from "@tidings/protocol";
import type { Kysely, Selectable } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import type { ConsoleInvitationsTable, Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { newId, randomToken } from "../ids.js";

/** An invitation link works for a week. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** An invitation as stored: the token only as its SHA-256. */
export type InvitationRow = Selectable<ConsoleInvitationsTable>;

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
