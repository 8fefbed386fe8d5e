import Type from "typebox";
import { StringEnum, Timestamp } from "./common.js";

const NullableString = Type.Union([Type.String(), Type.Null()]);

export const API_TOKEN_SCOPES = ["read", "read-write"] as const;
/** What a console API token may do: only read, or whatever its user's role allows. */
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];
export const ApiTokenScopeSchema = StringEnum(API_TOKEN_SCOPES);

export const CreateTokenBodySchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 120 }),
  /** `read`: reads only, writes are refused with 403 `token_read_only`. @default "read-write" */
  scope: Type.Optional(ApiTokenScopeSchema),
  /** The one workspace the token reaches (the user must belong to it); absent, every workspace of the user. */
  workspaceId: Type.Optional(Type.String({ pattern: "^ws_[0-9a-z]{26}$", description: "An id starting with ws_" })),
});
export const ApiTokenSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String(),
  userId: Type.String(),
  scope: ApiTokenScopeSchema,
  /** The one workspace the token reaches, or null for every workspace of its user. */
  workspaceId: NullableString,
  createdAt: Timestamp,
  lastUsedAt: Type.Union([Timestamp, Type.Null()]),
});
export const ApiTokenCreatedSchema = Type.Object({
  ...ApiTokenSchema.properties,
  /** The secret, shown only in this answer. */
  token: Type.String(),
});
