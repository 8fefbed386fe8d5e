import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { Kysely } from "kysely";
import { isoNow, type Clock } from "../clock.js";
import { reportCompany } from "../companies/membership.js";
import { preparedQuery } from "../db/prepared-query.js";
import type { Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { newId, pooledRandomBytes } from "../ids.js";
import { ssoUserToken, verifySsoToken, type SsoApp, type SsoProfile } from "./sso.js";

/** Who is calling a public endpoint, as far as the headers tell. */
export interface EndUserIdentity {
  /** The opaque client token, or null when none was sent. */
  token: string | null;
  /** True when `X-User-Hash` or an SSO token proved the host app vouches for the caller. */
  identified: boolean;
  /** Set when the caller signed in through SSO: what the host's token says about them. */
  profile?: SsoProfile;
}

const PRINTABLE = /^[\x21-\x7e]{1,256}$/;
const HEX_64 = /^[0-9a-fA-F]{64}$/;

/**
 * The identity hash a host backend computes: hex HMAC-SHA256(app signing secret, token).
 *
 * @example
 * ```ts
 * userHash("tsk_secret…", "user-42"); // "5f1c…" (64 hex)
 * ```
 */
export function userHash(signingSecret: string, token: string): string {
  return createHmac("sha256", signingSecret).update(token, "utf8").digest("hex");
}

/**
 * Reads `X-User-Token` (or, when that header is absent, `fallbackToken` from the body or query
 * of legacy clients) and `X-User-Hash`. A malformed token is 400 `invalid_user_token`; a hash
 * that does not match is 401 `invalid_user_hash` (compared in constant time).
 */
export function resolveIdentity(
  headers: Record<string, string | string[] | undefined>,
  signingSecret: string,
  fallbackToken?: string,
): EndUserIdentity {
  const rawToken = headers["x-user-token"] ?? fallbackToken;
  const rawHash = headers["x-user-hash"];
  if (rawToken === undefined) {
    if (rawHash !== undefined) throw new ApiError("invalid_user_hash");
    return { token: null, identified: false };
  }
  const token = typeof rawToken === "string" ? rawToken.trim() : "";
  if (!PRINTABLE.test(token)) throw new ApiError("invalid_user_token");
  if (rawHash === undefined) return { token, identified: false };
  if (typeof rawHash !== "string" || !HEX_64.test(rawHash.trim())) throw new ApiError("invalid_user_hash");
  const expected = Buffer.from(userHash(signingSecret, token), "hex");
  const given = Buffer.from(rawHash.trim().toLowerCase(), "hex");
  if (!timingSafeEqual(expected, given)) throw new ApiError("invalid_user_hash");
  return { token, identified: true };
}

/**
 * {@link resolveIdentity}, with sign-in from the host app first: a verified `X-SSO-Token` makes
 * the caller the SSO user (identified, with their profile) whatever `X-User-Token` says, and a
 * token that does not verify is refused (see `verifySsoToken`), never downgraded to anonymous.
 *
 * @example
 * ```ts
 * const identity = await identifyCaller(request.headers, appRow, ctx.clock);
 * if (identity.profile !== undefined) identity.profile.name; // "Ada Lovelace"
 * ```
 */
export async function identifyCaller(
  headers: Record<string, string | string[] | undefined>,
  app: SsoApp,
  clock: Clock,
  fallbackToken?: string,
): Promise<EndUserIdentity> {
  const sso = headers["x-sso-token"];
  if (sso === undefined || sso === "") return resolveIdentity(headers, app.signingSecret, fallbackToken);
  if (typeof sso !== "string") throw new ApiError("invalid_sso_token", { message: "Send one X-SSO-Token header" });
  const profile = await verifySsoToken(sso, app, clock.now());
  return { token: ssoUserToken(profile.subject), identified: true, profile };
}

/**
 * {@link identifyCaller} for reads: an SSO token that does not verify (typically one that expired
 * while the page stayed open) reads as the anonymous caller instead of blanking the board. Writes
 * use `identifyCaller` and refuse it.
 */
export async function identifyReader(
  headers: Record<string, string | string[] | undefined>,
  app: SsoApp,
  clock: Clock,
  fallbackToken?: string,
): Promise<EndUserIdentity> {
  try {
    return await identifyCaller(headers, app, clock, fallbackToken);
  } catch (error) {
    if (!(error instanceof ApiError) || headers["x-sso-token"] === undefined) throw error;
    return resolveIdentity({ ...headers, "x-sso-token": undefined }, app.signingSecret, fallbackToken);
  }
}

/** Refuses a write without a verified identity when the app's `requireIdentifiedUsers` is on. */
export function requireIdentifiedWrite(app: { requireIdentifiedUsers: 0 | 1 }, identity: EndUserIdentity): void {
  if (app.requireIdentifiedUsers === 1 && !identity.identified) throw new ApiError("identified_user_required");
}

const endUserByToken = preparedQuery<{ appId: string; hash: string }, { id: string; publicId: string }>((db, p) =>
  db.selectFrom("endUsers").select(["id", "publicId"]).where("appId", "=", p.appId).where("tokenHash", "=", p.hash),
);

const insertEndUser = preparedQuery<
  { id: string; appId: string; hash: string; publicId: string; now: string },
  { id: string; publicId: string }
>((db, p) =>
  db
    .insertInto("endUsers")
    .values({ id: p.id, appId: p.appId, tokenHash: p.hash, publicId: p.publicId, createdAt: p.now, lastSeenAt: p.now })
    .onConflict((oc) => oc.columns(["appId", "tokenHash"]).doNothing())
    .returning(["id", "publicId"]),
);

/** The end user of `appId` behind `token` if one was ever minted; reads never mint. */
export async function findEndUser(db: Kysely<Database>, appId: string, token: string): Promise<{ id: string; publicId: string } | undefined> {
  return endUserByToken.first(db, { appId, hash: tokenHash(token) });
}

/** What `end_users.token_hash` stores for a token: its hex SHA-256 (importers mint users in bulk). */
export function tokenHash(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** A public end-user id: `u_` + 32 random hex characters, unrelated to the token. */
export function newPublicUserId(): string {
  return `u_${pooledRandomBytes(16).toString("hex")}`;
}

/**
 * The end user of `appId` behind `token`, minted on first sight. Only a hash of the token is
 * stored; the public id never reveals it and differs between apps. Requests of a new token that
 * arrive at once mint it once: on PostgreSQL the later insert waits for the first writer's
 * transaction, so callers must take their locks in one order — a feature request's row before
 * the end user (votes, comments), the end user before the workspace's quota row (proposals,
 * feedback) — or two such requests deadlock. An SSO profile's `company` claim is written right
 * after the user's own fields (the user's row, then the company's).
 */
export async function ensureEndUser(
  db: Kysely<Database>,
  clock: Clock,
  appId: string,
  token: string,
  profile?: SsoProfile,
  /** The caller already looked the token up (see {@link tokenHash}): what it found, or null. */
  found?: { id: string; publicId: string } | null,
): Promise<{ id: string; publicId: string; created: boolean }> {
  const user = await findOrMintEndUser(db, clock, appId, token, found);
  // The host's latest token is the truth about its user: name, address and avatar follow it.
  if (profile !== undefined) {
    await db
      .updateTable("endUsers")
      .set({ displayName: profile.name, email: profile.email, avatarUrl: profile.avatarUrl })
      .where("id", "=", user.id)
      .execute();
    if (profile.company !== undefined) await reportCompany(db, clock, appId, user.id, profile.company.report, profile.company.reportedAt);
  }
  return user;
}

async function findOrMintEndUser(db: Kysely<Database>, clock: Clock, appId: string, token: string, found: { id: string; publicId: string } | null | undefined) {
  const hash = tokenHash(token);
  // Returning users are the common case: look first, insert only when new.
  const existing = found === undefined ? await endUserByToken.first(db, { appId, hash }) : (found ?? undefined);
  if (existing !== undefined) return { ...existing, created: false };
  const now = isoNow(clock);
  const inserted = await insertEndUser.first(db, { id: newId("eu", clock.now()), appId, hash, publicId: newPublicUserId(), now });
  if (inserted !== undefined) return { ...inserted, created: true };
  // Minted meanwhile by a concurrent request (PostgreSQL).
  const row = await endUserByToken.first(db, { appId, hash });
  if (row === undefined) throw new Error("end user vanished while being minted");
  return { ...row, created: false };
}
