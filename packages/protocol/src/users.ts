import Type, { type Static } from "typebox";
import { MAX_SAFE_INTEGER, Timestamp } from "./common.js";

const Nullable = <T extends Type.TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * `PUT /api/v1/public/apps/<appKey>/user` (wire contract §2.16). isPaying, plan and mrr (an
 * explicit null counts) need `signature` + `timestamp` (cpt-user-attrs-v1); currency alone does not.
 */
export const UserAttributesBodySchema = Type.Object({
  isPaying: Type.Optional(Type.Boolean()),
  plan: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 64 }))),
  mrr: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 1_000_000 }))),
  currency: Type.Optional(Type.String({ pattern: "^[A-Za-z]{3}$" })),
  userToken: Type.Optional(Type.String({ maxLength: 256 })),
  signature: Type.Optional(Type.String({ pattern: "^[0-9a-fA-F]{64}$" })),
  timestamp: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_SAFE_INTEGER })),
});
export type UserAttributesBody = Static<typeof UserAttributesBodySchema>;

export const UserAttributesResultSchema = Type.Object({ ok: Type.Boolean(), updatedAt: Timestamp });

const ProfileApp = Type.Object({
  id: Type.String(),
  name: Type.String(),
  slug: Type.String(),
  appSlug: Type.String(),
  workspaceSlug: Type.String(),
  workspaceName: Type.String(),
  iconUrl: Nullable(Type.String()),
  description: Nullable(Type.String()),
  requestCount: Type.Integer(),
});

const ProfileComment = Type.Object({
  id: Type.String(),
  body: Type.String(),
  createdAt: Timestamp,
  featureRequestId: Type.String(),
  featureRequestTitle: Type.String(),
  appId: Type.String(),
  appName: Type.String(),
  appSlug: Type.String(),
  workspaceSlug: Type.String(),
});

/** `GET /api/v1/users/<userId>/profile`: the superset of the legacy and newest shapes (§7.7, §12.8). */
export const UserProfileSchema = Type.Object({
  profile: Type.Object({
    id: Type.String(),
    clerkUserId: Type.String(),
    displayName: Nullable(Type.String()),
    avatarUrl: Nullable(Type.String()),
    bio: Nullable(Type.String()),
    websiteUrl: Nullable(Type.String()),
    isTeam: Type.Boolean(),
    hideComments: Type.Boolean(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  }),
  apps: Type.Array(ProfileApp),
  publicApps: Type.Array(ProfileApp),
  recentComments: Type.Array(ProfileComment),
  hideComments: Type.Boolean(),
});
export type UserProfile = Static<typeof UserProfileSchema>;
