import type { UserProfile } from "@tidings/protocol";
import { sql, type Kysely } from "kysely";
import type { Context } from "../context.js";
import type { Database } from "../db/schema.js";
import { onPublicBoard } from "../db/public-board.js";

/** How many recent comments a profile shows. */
export const PROFILE_COMMENT_LIMIT = 20;

const END_USER_ID = /^u_[0-9a-f]{32}$/;
const TEAM_USER_ID = /^usr_[0-9a-z]{26}$/;

/** Visible comments on approved, unmerged requests of public apps, newest first. */
function recentComments(db: Kysely<Database>, author: { endUserId: string } | { teamUserId: string }) {
  let query = db
    .selectFrom("featureRequestComments as cm")
    .innerJoin("featureRequests as fr", "fr.id", "cm.featureRequestId")
    .innerJoin("apps as a", "a.id", "fr.appId")
    .innerJoin("workspaces as w", "w.id", "a.workspaceId")
    .select([
      "cm.id",
      "cm.body",
      "cm.createdAt",
      "fr.id as featureRequestId",
      "fr.title as featureRequestTitle",
      "a.id as appId",
      "a.name as appName",
      "a.slug as appSlug",
      "w.slug as workspaceSlug",
    ])
    .where("cm.isHidden", "=", 0)
    .where("fr.moderation", "=", "approved")
    .where("fr.mergedIntoId", "is", null)
    .where(onPublicBoard())
    .where("a.allowPublic", "=", 1);
  query =
    "endUserId" in author
      ? query.where("cm.endUserId", "=", author.endUserId)
      : query.where("cm.teamUserId", "=", author.teamUserId).where("cm.isTeam", "=", 1);
  return query.orderBy("cm.createdAt", "desc").orderBy("cm.id", "desc").limit(PROFILE_COMMENT_LIMIT).execute();
}

/** Public apps of the workspaces `userId` owns, with their approved request counts. */
async function ownedApps(db: Kysely<Database>, userId: string): Promise<UserProfile["apps"]> {
  const rows = await db
    .selectFrom("memberships as m")
    .innerJoin("workspaces as w", "w.id", "m.workspaceId")
    .innerJoin("apps as a", "a.workspaceId", "w.id")
    .select([
      "a.id",
      "a.name",
      "a.slug",
      "a.iconUrl",
      "w.slug as workspaceSlug",
      "w.name as workspaceName",
      sql<number>`(select count(*) from feature_requests fr where fr.app_id = a.id and fr.moderation = 'approved' and fr.merged_into_id is null and ${onPublicBoard()})`.as(
        "requestCount",
      ),
    ])
    .where("m.userId", "=", userId)
    .where("m.role", "=", "owner")
    .where("a.allowPublic", "=", 1)
    .orderBy("a.name")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    slug: r.slug,
    appSlug: r.slug,
    workspaceSlug: r.workspaceSlug,
    workspaceName: r.workspaceName,
    iconUrl: r.iconUrl,
    description: null,
    requestCount: Number(r.requestCount),
  }));
}

/**
 * The public profile behind a public id: an end user (`u_…`) or a team member (`usr_…`). End-user
 * ids are random and unique across apps, so they resolve without an app key; an `appKey` that is
 * sent must be the user's app. Anything else (legacy `user_…` ids included), an unknown id, a
 * user of a private app, or an app key that does not match answers undefined alike (the route's
 * 404), so nothing is revealed. Never reads or returns a token.
 */
export async function loadProfile(ctx: Context, userId: string, appKey: string | undefined): Promise<UserProfile | undefined> {
  const db = ctx.db.kysely;
  if (END_USER_ID.test(userId)) {
    const user = await db
      .selectFrom("endUsers as eu")
      .innerJoin("apps as a", "a.id", "eu.appId")
      .select(["eu.id", "eu.publicId", "eu.displayName", "eu.avatarUrl", "eu.createdAt", "eu.lastSeenAt", "a.appKey", "a.allowPublic"])
      .where("eu.publicId", "=", userId)
      .executeTakeFirst();
    if (user === undefined || user.allowPublic !== 1) return undefined;
    if (appKey !== undefined && appKey !== user.appKey) return undefined;
    const comments = await recentComments(db, { endUserId: user.id });
    return {
      profile: {
        id: user.publicId,
        clerkUserId: user.publicId,
        displayName: user.displayName,
        avatarUrl: user.avatarUrl,
        bio: null,
        websiteUrl: null,
        isTeam: false,
        hideComments: false,
        createdAt: user.createdAt,
        updatedAt: user.lastSeenAt,
      },
      apps: [],
      publicApps: [],
      recentComments: comments,
      hideComments: false,
    };
  }
  if (TEAM_USER_ID.test(userId)) {
    const member = await db
      .selectFrom("consoleUsers")
      .select(["id", "displayName", "createdAt", "updatedAt"])
      .where("id", "=", userId)
      .executeTakeFirst();
    if (member === undefined) return undefined;
    const [apps, comments] = [await ownedApps(db, member.id), await recentComments(db, { teamUserId: member.id })];
    return {
      profile: {
        id: member.id,
        clerkUserId: member.id,
        displayName: member.displayName,
        avatarUrl: null,
        bio: null,
        websiteUrl: null,
        isTeam: true,
        hideComments: false,
        createdAt: member.createdAt,
        updatedAt: member.updatedAt,
      },
      apps,
      publicApps: apps,
      recentComments: comments,
      hideComments: false,
    };
  }
  return undefined;
}
