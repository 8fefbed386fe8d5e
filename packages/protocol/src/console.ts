import Type, { type Static } from "typebox";
import { StringEnum, Timestamp } from "./common.js";

const NullableString = Type.Union([Type.String(), Type.Null()]);

export const SlugSchema = Type.String({ minLength: 2, maxLength: 64, pattern: "^[a-z0-9]+(?:-[a-z0-9]+)*$" });

export const ROLES = ["owner", "admin", "member"] as const;
/** A console user's role in a workspace. */
export type Role = (typeof ROLES)[number];
export const RoleSchema = StringEnum(ROLES);

export const PLANS = ["free", "pro"] as const;
export const SUBSCRIPTION_STATUSES = ["active", "trialing", "past_due", "canceled", "inactive"] as const;
/** Subscription status of a workspace; intake is refused unless active or trialing. */
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const WorkspaceSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  slug: Type.String(),
  plan: StringEnum(PLANS),
  subscriptionStatus: StringEnum(SUBSCRIPTION_STATUSES),
  monthlySubmissionQuota: Type.Union([Type.Integer(), Type.Null()]),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Workspace = Static<typeof WorkspaceSchema>;

export const MembershipSchema = Type.Object({
  id: Type.String(),
  workspaceId: Type.String(),
  userId: Type.String(),
  role: RoleSchema,
  email: Type.String(),
  displayName: NullableString,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Membership = Static<typeof MembershipSchema>;

export const MeResponseSchema = Type.Object({
  user: Type.Union([
    Type.Object({ id: Type.String(), email: Type.String(), displayName: NullableString }),
    Type.Null(),
  ]),
  isBootstrapAdmin: Type.Boolean(),
  workspaces: Type.Array(
    Type.Object({ workspace: WorkspaceSchema, membership: Type.Union([MembershipSchema, Type.Null()]) }),
  ),
});

export const CreateWorkspaceBodySchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 120 }),
  slug: SlugSchema,
});
export const UpdateWorkspaceBodySchema = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 120 })),
  plan: Type.Optional(StringEnum(PLANS)),
  subscriptionStatus: Type.Optional(StringEnum(SUBSCRIPTION_STATUSES)),
  monthlySubmissionQuota: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 100_000_000 }), Type.Null()])),
});

export const AddMemberBodySchema = Type.Object({
  email: Type.String({ format: "email", maxLength: 254 }),
  role: RoleSchema,
  displayName: Type.Optional(Type.String({ minLength: 1, maxLength: 120 })),
});
export const UpdateMemberBodySchema = Type.Object({ role: RoleSchema });
