import { createHash } from "node:crypto";
import type { FastifyRequest } from "fastify";
import { isoNow } from "../clock.js";
import type { Context } from "../context.js";
import { newId, randomToken } from "../ids.js";

/** A session ends this long after sign-in, however active. */
export const SESSION_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
/** …or after this long without a request. */
export const SESSION_IDLE_MS = 24 * 60 * 60 * 1000;

const LAST_SEEN_RESOLUTION_MS = 60_000;

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest();

/** The stored form of a session token. */
export function hashSessionToken(token: string): string {
  return sha256(token).toString("hex");
}

/** A signed-in console user resolved from a session cookie. */
export interface SessionUser {
  sessionId: string;
  userId: string;
  email: string;
  displayName: string | null;
  expiresAt: string;
}

/** Starts a session for `userId`; answers the cookie's secret value (shown to the browser only). */
export async function createSession(ctx: Context, request: FastifyRequest, userId: string): Promise<{ token: string; expiresAt: string }> {
  const token = randomToken(43);
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + SESSION_MAX_AGE_MS).toISOString();
  await ctx.db.kysely
    .insertInto("consoleSessions")
    .values({
      id: newId("ses", now),
      tokenHash: hashSessionToken(token),
      userId,
      createdAt: now.toISOString(),
      lastSeenAt: now.toISOString(),
      expiresAt,
      revokedAt: null,
      ip: request.ip.slice(0, 64),
      userAgent: (request.headers["user-agent"] ?? "").slice(0, 300) || null,
    })
    .execute();
  return { token, expiresAt };
}

/** The live session of a cookie value and its user, or undefined (unknown, revoked, expired or idle). */
export async function findSession(ctx: Context, token: string): Promise<SessionUser | undefined> {
  if (token.length < 20 || token.length > 100) return undefined;
  const row = await ctx.db.kysely
    .selectFrom("consoleSessions")
    .innerJoin("consoleUsers", "consoleUsers.id", "consoleSessions.userId")
    .select([
      "consoleSessions.id",
      "consoleSessions.expiresAt",
      "consoleSessions.lastSeenAt",
      "consoleSessions.revokedAt",
      "consoleUsers.id as userId",
      "consoleUsers.email",
      "consoleUsers.displayName",
    ])
    .where("consoleSessions.tokenHash", "=", hashSessionToken(token))
    .executeTakeFirst();
  if (row === undefined || row.revokedAt !== null) return undefined;
  const now = ctx.clock.now().getTime();
  if (now >= Date.parse(row.expiresAt) || now - Date.parse(row.lastSeenAt) >= SESSION_IDLE_MS) return undefined;
  if (now - Date.parse(row.lastSeenAt) > LAST_SEEN_RESOLUTION_MS) {
    await ctx.db.kysely.updateTable("consoleSessions").set({ lastSeenAt: isoNow(ctx.clock) }).where("id", "=", row.id).execute();
  }
  return { sessionId: row.id, userId: row.userId, email: row.email, displayName: row.displayName, expiresAt: row.expiresAt };
}

/** Ends the session of a cookie value (no-op when unknown). */
export async function revokeSession(ctx: Context, token: string): Promise<void> {
  await ctx.db.kysely
    .updateTable("consoleSessions")
    .set({ revokedAt: isoNow(ctx.clock) })
    .where("tokenHash", "=", hashSessionToken(token))
    .where("revokedAt", "is", null)
    .execute();
}
