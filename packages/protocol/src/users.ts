import Type, { type Static } from "typebox";
import { MAX_SAFE_INTEGER, Timestamp } from "./common.js";

const Nullable = <T extends Type.TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** One line of text: no control characters (a signed line cannot be split in two). */
const OneLine = (maxLength: number) => Type.String({ minLength: 1, maxLength, pattern: "^[^\\u0000-\\u001f\\u007f]+$" });

/** Limits of a company's `attributes` map, past which it is `400 company_attributes_too_large`. */
export const COMPANY_ATTRIBUTE_LIMITS = { keys: 50, keyLength: 64, stringLength: 1000, canonicalBytes: 8192 } as const;

/** The largest company MRR, in currency units. */
export const COMPANY_MRR_MAX = 1_000_000_000;

/** A value of a company's further attributes: flat, so the signed form stays one line. */
export const CompanyAttributeValueSchema = Type.Union([Type.String(), Type.Number({ minimum: -MAX_SAFE_INTEGER, maximum: MAX_SAFE_INTEGER }), Type.Boolean(), Type.Null()]);

/**
 * The company an end user belongs to, as the host reports it through the signed attributes call
 * (`company`) or the SSO token (`company` claim). `id` is the host's own; a field left out keeps
 * what is stored, `attributes` replaces the whole map when sent.
 *
 * @example
 * ```ts
 * const company: CompanyAttributes = { id: "acct_42", name: "Acme", mrr: 1200, currency: "EUR", plan: "business", attributes: { seats: 40 } };
 * ```
 */
export const CompanyAttributesSchema = Type.Object({
  id: OneLine(128),
  name: Type.Optional(OneLine(200)),
  /** Monthly recurring revenue in currency units, 0 to 1,000,000,000; null when unknown. */
  mrr: Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: COMPANY_MRR_MAX }), Type.Null()])),
  /** ISO 4217 code; USD when a new company reports none. */
  currency: Type.Optional(Type.String({ pattern: "^[A-Za-z]{3}$" })),
  plan: Type.Optional(Type.Union([OneLine(64), Type.Null()])),
  /** Keys of 1–64 letters, digits, `_`, `.` or `-`; at most 50, 8 KB as canonical JSON. */
  attributes: Type.Optional(Type.Record(Type.String(), CompanyAttributeValueSchema)),
});
export type CompanyAttributes = Static<typeof CompanyAttributesSchema>;

/**
 * `PUT /api/v1/public/apps/<appKey>/user` (wire contract §2.16). isPaying, plan and mrr (an
 * explicit null counts) need `signature` + `timestamp` (cpt-user-attrs-v1); currency alone does not.
 * `company` (null: the user leaves their company) is signed with cpt-user-attrs-v2.
 */
export const UserAttributesBodySchema = Type.Object({
  company: Type.Optional(Type.Union([Type.Null(), CompanyAttributesSchema])),
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
